// SPDX-License-Identifier: MIT
#include "ssec/differential/fuzzer.hpp"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "ssec/conformance/loader.hpp"
#include "ssec/conformance/runner.hpp"
#include "ssec/differential/case_writer.hpp"
#include "ssec/differential/shrink.hpp"
#include "ssec/support/text.hpp"

namespace ssec::differential {

namespace conf = ssec::conformance;
namespace fs = std::filesystem;
using steady = std::chrono::steady_clock;

std::vector<std::string> load_seeds(const fs::path& cases_dir, const fs::path& tags_file, const fs::path& corpus_dir,
                                    conf::layer layer) {
  std::set<std::string> seeds;
  std::error_code ec;
  if (fs::is_directory(cases_dir, ec)) {
    std::vector<ssec::error> errors;
    const auto tags = conf::load_tags(tags_file, tags_file.string(), errors);
    const auto loaded = conf::load_case_tree(cases_dir, cases_dir.string(), tags);
    for (const auto& c : loaded.value) {
      if (c.input.size() > 4096 || c.input.empty()) continue;
      if (layer == conf::layer::wire || c.layer == layer) seeds.insert(c.input);
    }
  }
  const fs::path corpus = corpus_dir / "sse_parse_fuzzer";
  if (layer == conf::layer::wire && fs::is_directory(corpus, ec)) {
    for (const auto& entry : fs::directory_iterator(corpus, ec)) {
      if (!entry.is_regular_file() || entry.file_size() > 4096 || entry.file_size() == 0) continue;
      std::ifstream in(entry.path(), std::ios::binary);
      seeds.insert(std::string(std::istreambuf_iterator<char>(in), {}));
    }
  }
  return {seeds.begin(), seeds.end()};
}

int fuzz_report::exit_code() const {
  if (interrupted_by != 0) return 128 + interrupted_by;
  int code = 0;
  for (const auto& i : impls) {
    if (!i.setup_error.empty() || !i.write_error.empty()) return 2;
    for (const auto& f : i.findings) {
      if (f.d.outcome != conf::outcome::informational) code = 1;
    }
  }
  return code;
}

int replay_report::exit_code() const {
  if (!setup_error.empty()) return 2;
  if (interrupted_by != 0) return 128 + interrupted_by;
  return std::any_of(entries.begin(), entries.end(), [](const replay_entry& e) { return e.status == "still-failing"; })
             ? 1
             : 0;
}

std::string progress_line(const fuzz_progress& p) {
  char text[200];
  const double rate = p.elapsed > 0 ? static_cast<double>(p.execs) / p.elapsed : 0;
  std::snprintf(text, sizeof text, "fuzz: %llu execs, %.0f/s, %zu fingerprints (%zu informational), %.0f s left",
                static_cast<unsigned long long>(p.execs), rate, p.fingerprints, p.informational,
                std::max(0.0, p.budget - p.elapsed));
  return text;
}

namespace {

// One implementation as the run sees it, shared by the workers.
struct impl_state {
  std::string command;
  harness::adapter_info info;
  capability_list caps;
  fs::path dir;
  std::mutex mutex;                      // guards everything below
  std::map<std::string, finding> found;  // by fingerprint
  std::vector<std::string> order;        // fingerprints in the order found
  std::uint64_t over_limit = 0;
  std::uint64_t starts = 0;
  std::string write_error;                                    // the first finding that could not be written
  std::map<std::vector<std::string>, std::string> compounds;  // the two parts -> the first compound of them
};

}  // namespace

std::uint64_t sample_index(std::uint64_t n, const std::optional<harness::shard>& shard) noexcept {
  return shard ? n * shard->count + (shard->index - 1) : n;
}

namespace {

class fuzz_run {
 public:
  fuzz_run(const fuzz_options& o, fuzz_report& report) : o_(o), report_(report) {}

  bool setup() {
    if (o_.layer != conf::layer::wire) {
      dialect_ = o_.contract ? o_.contract->dialect(std::string(conf::to_string(o_.layer))) : nullptr;
    }
    gen_ = std::make_unique<generator>(o_.layer, dialect_, o_.seeds, o_.seed);
    report_.seed_streams = o_.seeds.size();
    bool ok = true;
    std::set<std::string> dirs;
    for (const auto& command : o_.impls) {
      if (interrupted()) return false;
      auto state = std::make_unique<impl_state>();
      state->command = command;
      impl_report r;
      r.command = command;
      adapter_process probe(command);
      const auto hello = harness::say_hello(probe, o_.hello_timeout);
      probe.stop();
      if (interrupted()) return false;
      if (!hello) {
        r.setup_error = hello.error().message;
        ok = false;
      } else {
        state->info = *hello;
        state->caps = hello->capabilities;
        const std::string layer(conf::to_string(o_.layer));
        if (std::find(hello->layers.begin(), hello->layers.end(), layer) == hello->layers.end()) {
          r.setup_error = "the adapter does not implement layer " + layer + " (its hello lists " +
                          ssec::join(hello->layers, ", ") + ")";
          ok = false;
        }
      }
      // Each implementation writes into a folder of its own, named from its
      // hello, checked before the first sample (writable, no symbolic link).
      std::string name = impl_dir_name(state->info.name.empty() ? "impl" : state->info.name);
      while (!dirs.insert(name).second) name += "_";
      state->dir = o_.out_dir / name;
      if (r.setup_error.empty()) {
        if (auto ready = prepare_out_dir(state->dir); !ready) {
          r.setup_error = "--out: " + ready.error().to_string();
          ok = false;
        }
      }
      r.info = state->info;
      r.dir = state->dir;
      report_.impls.push_back(std::move(r));
      impls_.push_back(std::move(state));
    }
    if (o_.layer != conf::layer::wire && dialect_ == nullptr && ok) {
      report_.impls.front().setup_error = "the contract has no dialect " + std::string(conf::to_string(o_.layer));
      ok = false;
    }
    return ok;
  }

  void run(const std::function<void(const fuzz_progress&)>& progress, std::chrono::milliseconds every) {
    started_ = steady::now();
    deadline_ = started_ + std::chrono::milliseconds(static_cast<std::int64_t>(o_.budget_seconds * 1000));
    std::vector<std::thread> threads;
    std::atomic<unsigned> running{std::max(1u, o_.jobs)};
    for (unsigned j = 0; j < std::max(1u, o_.jobs); ++j) {
      threads.emplace_back([this, &running] {
        work();
        --running;
      });
    }
    auto last = steady::now();
    while (running > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      if (progress && steady::now() - last >= every) {
        last = steady::now();
        progress(snapshot());
      }
    }
    for (auto& t : threads) t.join();
    report_.execs = execs_;
    report_.seconds = std::chrono::duration<double>(steady::now() - started_).count();
    if (progress) progress(snapshot());
    for (std::size_t k = 0; k < impls_.size(); ++k) {
      auto& st = *impls_[k];
      auto& r = report_.impls[k];
      for (const auto& fp : st.order) r.findings.push_back(st.found.at(fp));
      r.over_limit = st.over_limit;
      r.write_error = st.write_error;
      const std::uint64_t first_starts = std::max(1u, o_.jobs);  // each worker starts one
      r.restarts = st.starts > first_starts ? st.starts - first_starts : 0;
    }
    for (const auto& [key, a] : agreements_) report_.agreements.push_back(a);
  }

 private:
  bool interrupted() const { return o_.interrupt != nullptr && o_.interrupt->load() != 0; }

  fuzz_progress snapshot() {
    fuzz_progress p;
    p.execs = execs_;
    p.elapsed = std::chrono::duration<double>(steady::now() - started_).count();
    p.budget = o_.budget_seconds;
    for (auto& st : impls_) {
      const std::lock_guard lock(st->mutex);
      p.fingerprints += st->found.size();
      for (const auto& [fp, f] : st->found) p.informational += f.d.outcome == conf::outcome::informational;
    }
    return p;
  }

  // Sends `s` (whose case is `c`) to `proc`, starting it and saying hello first when needed.
  // Once interrupted, nothing is sent and no adapter is started.
  exchange send(adapter_process& proc, const conf::test_case& c, const sample& s) {
    if (interrupted()) return exchange{exchange_status::not_running, "", "interrupted"};
    if (!proc.running()) {
      if (const auto hello = harness::say_hello(proc, o_.hello_timeout); !hello) {
        proc.kill();
        return exchange{exchange_status::not_running, "", hello.error().message};
      }
    }
    const auto chunks = chunks_of(s);
    const std::string line = harness::parse_request_line(c.path(), conf::to_string(c.layer), chunks);
    exchange ex = proc.exchange_line(line, o_.timeout);
    if (ex.status != exchange_status::ok) proc.kill();
    return ex;
  }

  std::optional<divergence> judge_sample(adapter_process& proc, impl_state& st, const conf::test_case& c,
                                         const sample& s) {
    const exchange ex = send(proc, c, s);
    auto d = judge(c, ex, st.caps);
    if (d && d->fingerprint == "adapter.malformed") proc.kill();  // its answers may be out of step now
    return d;
  }

  // judge_sample, then the repair probes (oracle.hpp, repairs_of): a
  // divergence that a repair makes disappear (or leaves only informational)
  // is named after the first such repair, in repairs_of's order.
  std::optional<divergence> try_sample(adapter_process& proc, impl_state& st, const conf::test_case& c,
                                       const sample& s) {
    auto d = judge_sample(proc, st, c, s);
    if (!d || d->fingerprint.starts_with("adapter.") || d->outcome == conf::outcome::informational) return d;
    for (const auto& r : repairs_of(s)) {
      const conf::test_case repaired = reference_case(o_.layer, r.repaired, dialect_);
      const auto again = judge_sample(proc, st, repaired, r.repaired);
      if (!again || again->outcome == conf::outcome::informational) {
        d->fingerprint = repair_fingerprint(conf::to_string(o_.layer), r.name);
        d->detail.clear();  // named by the repair now, not by how a value differs
        break;
      }
    }
    return d;
  }

  void work() {
    std::vector<std::unique_ptr<adapter_process>> procs;
    for (const auto& st : impls_) procs.push_back(std::make_unique<adapter_process>(st->command));
    std::vector<int> starts_seen(impls_.size(), 0);
    while (steady::now() < deadline_ && !interrupted()) {
      const std::uint64_t index = sample_index(next_++, o_.shard);
      if (o_.max_execs != 0 && index >= o_.max_execs) break;
      const sample s = gen_->make(index);
      const conf::test_case c = reference_case(o_.layer, s, dialect_);
      std::vector<std::optional<divergence>> results(impls_.size());
      for (std::size_t k = 0; k < impls_.size(); ++k) results[k] = try_sample(*procs[k], *impls_[k], c, s);
      if (interrupted()) break;  // the answers may be the signal's doing: the sample is dropped
      ++execs_;
      for (std::size_t k = 0; k < impls_.size(); ++k) {
        if (results[k]) record(k, *procs[k], index, s, *results[k]);
      }
      if (impls_.size() > 1) note_agreements(results);
      for (std::size_t k = 0; k < impls_.size(); ++k) {
        const int now = procs[k]->starts();
        if (now != starts_seen[k]) {
          const std::lock_guard lock(impls_[k]->mutex);
          impls_[k]->starts += static_cast<std::uint64_t>(now - starts_seen[k]);
          starts_seen[k] = now;
        }
      }
    }
    for (auto& p : procs) p->stop();
  }

  void note_agreements(const std::vector<std::optional<divergence>>& results) {
    std::map<std::string, std::vector<std::size_t>> groups;
    for (std::size_t k = 0; k < results.size(); ++k) {
      if (results[k]) groups[results[k]->answer_key].push_back(k);
    }
    for (const auto& [key, members] : groups) {
      if (members.size() < 2) continue;
      std::string id;
      agreement a;
      for (const std::size_t k : members) {
        a.impls.push_back(impls_[k]->info.name);
        id += impls_[k]->info.name + "\n";
      }
      a.fingerprint = results[members.front()]->fingerprint;
      id += a.fingerprint;
      const std::lock_guard lock(agreements_mutex_);
      auto it = agreements_.find(id);
      if (it == agreements_.end()) {
        if (agreements_.size() >= 256) continue;  // bounded
        it = agreements_.emplace(id, a).first;
      }
      ++it->second.hits;
    }
  }

  // A shrunk case whose divergence goes when either of two of its lines goes,
  // each removal leaving another divergence, needs two bugs at once: those
  // two fingerprints (each recorded in turn, from the case without the other
  // line), else nothing.
  std::vector<std::string> compound_parts(std::size_t k, adapter_process& proc, std::uint64_t index,
                                          const sample& small, const divergence& d, int depth) {
    impl_state& st = *impls_[k];
    std::vector<std::pair<std::string, sample>> parts;
    for (const auto& [from, to] : line_spans(small.bytes)) {
      if (interrupted() || parts.size() == 2) break;
      const sample without = remove_range(small, from, to);
      const conf::test_case c = reference_case(o_.layer, without, dialect_);
      if (!conf::missing_capabilities(c, st.caps).empty()) continue;
      const auto again = try_sample(proc, st, c, without);
      if (!again || again->fingerprint == d.fingerprint || again->fingerprint.starts_with("adapter.") ||
          again->outcome == conf::outcome::informational) {
        continue;
      }
      if (parts.empty() || parts.front().first != again->fingerprint) parts.emplace_back(again->fingerprint, without);
    }
    if (parts.size() < 2) return {};
    std::vector<std::string> names;
    for (const auto& [fingerprint, part] : parts) {
      names.push_back(fingerprint);
      if (depth == 0 && !interrupted()) {
        if (const auto again = try_sample(proc, st, reference_case(o_.layer, part, dialect_), part)) {
          record(k, proc, index, part, *again, depth + 1);
        }
      }
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  // Whether a hit `d` of `f`'s fingerprint is shrunk to look for another
  // trigger (fuzz_options::max_exemplars), under the impl's mutex: for a
  // fingerprint named by a value difference (not a compound), when the
  // characters where the value first differs (divergence::detail) are new
  // for it (another trigger usually differs elsewhere), at most 4 tries per
  // exemplar wanted.
  bool wants_exemplar(finding& f, const divergence& d) const {
    if (f.shape.empty() || !f.compound_of.empty() || d.detail.empty() || f.d.outcome == conf::outcome::informational ||
        1 + f.also.size() >= o_.max_exemplars || f.exemplar_tries >= 4 * (o_.max_exemplars - 1)) {
      return false;
    }
    return f.tried_details.insert(d.detail).second;
  }

  struct written_case {
    std::filesystem::path file;
    std::string reproduce;
    std::string not_written;
    std::string write_error;
  };

  // Writes exemplar `p.exemplar` of `d` (its first: <fingerprint>.yaml,
  // else <fingerprint>.<n>.yaml), unless `run` would skip it.
  written_case write_case(const impl_state& st, const conf::test_case& c, const divergence& d,
                          const provenance& p) const {
    written_case w;
    const std::string stem = d.fingerprint + (p.exemplar > 1 ? "." + std::to_string(p.exemplar) : std::string());
    const fs::path file = st.dir / (stem + ".yaml");
    if (const auto lacking = conf::missing_capabilities(c, st.caps); !lacking.empty()) {
      w.not_written = "not written: the shrunk case needs capability " + ssec::join(lacking, ", ") +
                      ", which the adapter does not list, so `run` would skip it";
      return w;
    }
    if (auto ok = write_finding_file(file, finding_case_text(c, d, p)); !ok) {
      w.not_written = ok.error().to_string();
      w.write_error = w.not_written;
      return w;
    }
    w.file = file;
    conf::test_case named = c;
    named.id = finding_id(st.info.name + "/" + d.fingerprint +
                          (p.exemplar > 1 ? "#" + std::to_string(p.exemplar) : std::string()));
    named.topic = stem;  // the loader names a case's topic after its file
    w.reproduce = o_.tool + " run --impl " + harness::shell_quote(st.command) + " --cases " +
                  harness::shell_quote(st.dir.string()) + " --run " + harness::shell_quote(named.path()) +
                  " --chunking as-written" + o_.run_options;
    return w;
  }

  void record(std::size_t k, adapter_process& proc, std::uint64_t index, const sample& s, const divergence& d,
              int depth = 0) {
    impl_state& st = *impls_[k];
    bool another = false;  // a later sample of a known fingerprint, shrunk to look for another trigger
    {
      const std::lock_guard lock(st.mutex);
      if (auto it = st.found.find(d.fingerprint); it != st.found.end()) {
        ++it->second.hits;
        if (depth > 0 || !wants_exemplar(it->second, d)) return;
        ++it->second.exemplar_tries;
        another = true;
      } else if (st.found.size() >= o_.max_fingerprints) {
        ++st.over_limit;
        return;
      } else {
        finding f;
        f.d = d;
        f.hits = 1;
        f.first_exec = index;
        f.original_bytes = s.bytes.size();
        st.found.emplace(d.fingerprint, f);
        st.order.push_back(d.fingerprint);
      }
    }
    // Shrink while it keeps its fingerprint, on this worker's adapter, into a
    // case `run` grades: one that needs no capability the adapter lacks. A
    // sample that needs one starts without the fields behind it when that
    // keeps the fingerprint; once a candidate is gradeable, every later one
    // must be. Interrupted, no candidate is kept: the sample shrunk so far is
    // written with the divergence it showed (`kept`).
    const auto missing = [&](const sample& x) {
      return conf::missing_capabilities(reference_case(o_.layer, x, dialect_), st.caps);
    };
    std::optional<divergence> kept;
    // A further exemplar also keeps how its value differs: shrinking on the
    // fingerprint alone would lead it to the smallest trigger, the first's.
    const std::string& detail = d.detail;
    const auto same_fingerprint = [&](const sample& candidate) {
      if (interrupted()) return false;
      const conf::test_case c = reference_case(o_.layer, candidate, dialect_);
      auto again = try_sample(proc, st, c, candidate);
      if (interrupted() || !again || again->fingerprint != d.fingerprint) return false;
      if (another && again->detail != detail) return false;
      kept = std::move(again);
      return true;
    };
    sample start = s;
    if (const auto lacking = missing(s); !lacking.empty()) {
      std::vector<std::string> fields;
      fields.reserve(lacking.size());
      for (const auto& cap : lacking) fields.emplace_back(cap == "retry" ? "retry" : "id");
      if (sample stripped = without_fields(s, fields); same_fingerprint(stripped)) start = std::move(stripped);
    }
    bool gradeable = missing(start).empty();
    const auto interesting = [&](const sample& candidate) {
      const bool ok = missing(candidate).empty();
      if (gradeable && !ok) return false;
      if (!same_fingerprint(candidate)) return false;
      gradeable |= ok;
      return true;
    };
    shrink_limits limits;
    const bool slow = d.fingerprint == "adapter.timeout" || d.fingerprint == "adapter.not-running";
    limits.max_tests = slow ? 12 : o_.shrink_tests;
    limits.deadline = steady::now() + std::chrono::milliseconds(static_cast<std::int64_t>(o_.shrink_seconds * 1000));
    shrink_stats stats;
    const sample small = shrink(start, interesting, limits, &stats);
    const conf::test_case c = reference_case(o_.layer, small, dialect_);
    divergence final_d = d;
    if (interrupted()) {
      if (another) return;  // a half-shrunk case would differ from the first by its leftovers only
      final_d = kept.value_or(d);
      stats.complete = false;
    } else if (auto again = try_sample(proc, st, c, small); again && again->fingerprint == d.fingerprint) {
      final_d = *again;
    }
    if (another) {
      keep_exemplar(st, index, small, c, final_d);
      return;
    }
    std::vector<std::string> compound;
    if (!interrupted() && !d.fingerprint.starts_with("adapter.") && d.outcome != conf::outcome::informational) {
      compound = compound_parts(k, proc, index, small, final_d, depth);
    }

    // A compound of two parts another compound already has is the same two
    // bugs again under another name: listed, not written (each part and the
    // first compound of them have their cases).
    std::string same_as;
    if (!compound.empty()) {
      const std::lock_guard lock(st.mutex);
      same_as = st.compounds.emplace(compound, d.fingerprint).first->second;
      if (same_as == d.fingerprint) same_as.clear();
    }
    provenance p = provenance_of(st, index);
    p.compound_of = compound;
    written_case w;
    if (same_as.empty()) {
      w = write_case(st, c, final_d, p);
    } else {
      w.not_written = "not written: a compound of " + ssec::join(compound, " + ") + ", as " + same_as + " is";
    }

    const std::lock_guard lock(st.mutex);
    finding& f = st.found.at(d.fingerprint);
    f.same_as = same_as;
    f.d = final_d;
    f.shrunk_bytes = small.bytes.size();
    f.shrunk_chunks = small.cuts.size() + 1;
    f.shrink_tests = stats.tests;
    f.shrink_complete = stats.complete;
    f.shrunk_escaped = conf::describe_chunks(chunks_of(small), 200);
    f.compound_of = compound;
    f.shape = trigger_shape(small.bytes);
    f.file = w.file;
    f.reproduce = w.reproduce;
    f.not_written = w.not_written;
    if (!w.write_error.empty() && st.write_error.empty()) st.write_error = w.write_error;
  }

  provenance provenance_of(const impl_state& st, std::uint64_t index) const {
    provenance p;
    p.seed = o_.seed;
    p.sample_index = index;
    p.reference = o_.reference_version;
    p.impl_name = st.info.name;
    p.impl_version = st.info.version;
    p.impl_command = st.command;
    return p;
  }

  // A further exemplar of a known fingerprint, kept when its shrunk lines
  // take a shape none of the fingerprint's cases has.
  void keep_exemplar(impl_state& st, std::uint64_t index, const sample& small, const conf::test_case& c,
                     const divergence& d) {
    exemplar e;
    e.shape = trigger_shape(small.bytes);
    e.shrunk_bytes = small.bytes.size();
    e.shrunk_escaped = conf::describe_chunks(chunks_of(small), 200);
    std::size_t n = 0;
    {
      const std::lock_guard lock(st.mutex);
      finding& f = st.found.at(d.fingerprint);
      const bool seen = e.shape == f.shape || std::any_of(f.also.begin(), f.also.end(),
                                                          [&](const exemplar& x) { return x.shape == e.shape; });
      if (seen || 1 + f.also.size() >= o_.max_exemplars) return;
      f.also.push_back(e);  // its place (and number) now, its file below
      n = f.also.size() + 1;
    }
    provenance p = provenance_of(st, index);
    p.exemplar = n;
    const written_case w = write_case(st, c, d, p);
    const std::lock_guard lock(st.mutex);
    exemplar& kept = st.found.at(d.fingerprint).also[n - 2];
    kept.file = w.file;
    kept.reproduce = w.reproduce;
    kept.not_written = w.not_written;
    if (!w.write_error.empty() && st.write_error.empty()) st.write_error = w.write_error;
  }

  const fuzz_options& o_;
  fuzz_report& report_;
  const sse::dialect::dialect_spec* dialect_ = nullptr;
  std::unique_ptr<generator> gen_;
  std::vector<std::unique_ptr<impl_state>> impls_;
  std::atomic<std::uint64_t> next_{0};
  std::atomic<std::uint64_t> execs_{0};
  steady::time_point started_, deadline_;
  std::mutex agreements_mutex_;
  std::map<std::string, agreement> agreements_;
};

}  // namespace

fuzz_report run_fuzz(const fuzz_options& o, const std::function<void(const fuzz_progress&)>& progress,
                     std::chrono::milliseconds progress_every) {
  fuzz_report report;
  fuzz_run run(o, report);
  if (run.setup()) run.run(progress, progress_every);
  if (o.interrupt != nullptr) report.interrupted_by = o.interrupt->load();
  return report;
}

replay_report replay(const std::vector<const conf::test_case*>& cases, const harness::run_options& o) {
  replay_report out;
  harness::run_options ro = o;
  ro.only_chunking = conf::chunking{conf::chunking::kind::as_written, 0};
  out.selected = cases.size();
  const harness::run_result r = harness::run_cases(cases, ro);
  if (o.interrupt != nullptr) out.interrupted_by = o.interrupt->load();  // also when it struck the first hello
  if (!r.setup_error.empty() && out.interrupted_by == 0) {
    out.setup_error = r.setup_error;
    return out;
  }
  for (const auto& c : r.cases) {
    replay_entry e;
    e.path = c.path;
    e.file = c.c->where.to_string();
    switch (c.outcome) {
      case conf::outcome::pass: e.status = "fixed"; break;
      case conf::outcome::informational: e.status = "informational"; break;
      case conf::outcome::skip: e.status = "skip"; break;
      default: e.status = "still-failing"; break;
    }
    e.detail = std::string(conf::to_string(c.outcome)) + (c.reason.empty() ? "" : ": " + c.reason);
    out.entries.push_back(std::move(e));
  }
  return out;
}

}  // namespace ssec::differential
