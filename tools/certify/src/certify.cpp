// SPDX-License-Identifier: MIT
// The certify engine (certify.hpp): reference, producers, profiles, consumers.
#include "ssec/certify/certify.hpp"

#include <algorithm>
#include <chrono>
#include <set>
#include <thread>

#include "certify_parts.hpp"
#include "sse/dialect/validator.hpp"
#include "ssec/adapter/process.hpp"
#include "ssec/conformance/dialect_runner.hpp"
#include "ssec/conformance/generator.hpp"
#include "ssec/harness/engine.hpp"
#include "ssec/harness/grading.hpp"
#include "ssec/live/capture.hpp"
#include "ssec/live/check.hpp"
#include "ssec/live/scenario.hpp"
#include "ssec/support/escape.hpp"

namespace ssec::certify {
namespace conf = ssec::conformance;
namespace dl = sse::dialect;
using steady = std::chrono::steady_clock;

std::string to_string(verdict v) {
  switch (v) {
    case verdict::certified: return "certified";
    case verdict::warned: return "certified-with-warnings";
    case verdict::broke: return "broke";
  }
  return "";
}

bool report::certified() const noexcept {
  if (interrupted_by != 0 || deadline_reached || contract == verdict::broke || reference.disagreements > 0) {
    return false;
  }
  for (const auto& p : producers) {
    if (p.result == verdict::broke) return false;
  }
  for (const auto& c : consumers) {
    if (c.result == verdict::broke) return false;
    if (fail_on_existing && (c.existing > 0 || c.case_existing > 0)) return false;
  }
  return allow_unchecked ||
         std::none_of(dialects.begin(), dialects.end(), [](const dialect_check& d) { return d.unchecked(); });
}

std::vector<std::string> report::unchecked() const {
  std::vector<std::string> out;
  for (const auto& d : dialects) {
    if (d.unchecked()) out.push_back(d.dialect);
  }
  return out;
}

int report::exit_status() const noexcept {
  if (interrupted_by != 0) return 128 + interrupted_by;
  return certified() ? 0 : 1;
}

namespace {

bool interrupted(const options& o) { return o.interrupt != nullptr && o.interrupt->load() != 0; }

void say(const progress_callback& progress, const std::string& line) {
  if (progress) progress(line);
}

// A contract's generated cases, loaded as the case loader reads case files.
std::vector<conf::test_case> generated_cases(const dl::catalog& cat, const conf::tag_list& tags,
                                             std::vector<std::string>& errors) {
  std::vector<conf::test_case> out;
  for (const auto& file : conf::generate_cases(cat, {})) {
    const std::string stem = file.name.substr(0, file.name.rfind('.'));
    auto loaded = conf::load_cases_from_text(file.text, "generated/" + file.name, stem, tags);
    for (const auto& e : loaded.errors) errors.push_back(e.to_string());
    for (auto& c : loaded.value) out.push_back(std::move(c));
  }
  return out;
}

// Stops between cases when interrupted: `cases` counts those checked.
void run_reference(const options& o, const std::vector<conf::test_case>& cases, const std::set<std::string>& old_paths,
                   reference_report& r) {
  for (const auto& c : cases) {
    if (interrupted(o)) return;
    ++r.cases;
    if (old_paths.count(c.path()) == 0) ++r.new_cases;
    if (auto failure = conf::check_against_reference(c, o.case_plan, *o.new_contract)) {
      ++r.disagreements;
      if (r.first_failures.size() < 5) r.first_failures.push_back(*failure);
    }
  }
}

producer_report::finding finding_of(const live::check_finding& f) {
  return {f.rule, f.severity, f.message.empty() ? f.seen : f.message, f.frame, false, f.at_end};
}

producer_report check_producer(const options& o, const live::capture& cap, std::string source,
                               const std::string& dialect, const live::scenario_expect* expect = nullptr) {
  producer_report r;
  r.source = std::move(source);
  r.dialect = dialect;
  live::check_options next;
  next.dialect = o.new_contract->dialect(dialect);
  live::check_options prev = next;
  prev.dialect = o.old_contract->dialect(dialect);
  if (next.dialect == nullptr) {
    r.result = verdict::broke;
    r.error = "the new contract has no dialect `" + dialect + "`";
    return r;
  }
  live::check_report now = live::analyze(cap, next);
  if (expect != nullptr) {
    live::check_expectations(*expect, live::event_types(cap.bytes(), next.dialect, next.limits), now);
    now.must = 0;
    now.should = 0;
    for (const auto& f : now.findings) (f.severity == "must" ? now.must : now.should) += 1;
  }
  std::set<std::pair<std::string, std::size_t>> before;
  if (prev.dialect != nullptr) {
    const live::check_report then = live::analyze(cap, prev);
    r.old_must = then.must;
    for (const auto& f : then.findings) before.insert({f.rule, f.frame.value_or(SIZE_MAX)});
  }
  r.frames = now.frames;
  r.must = now.must;
  r.should = now.should;
  for (const auto& f : now.findings) {
    auto out = finding_of(f);
    out.new_since_old = prev.dialect != nullptr && before.count({f.rule, f.frame.value_or(SIZE_MAX)}) == 0;
    r.findings.push_back(std::move(out));
  }
  // Relative to OLD: a MUST finding of a catalog rule that OLD gave the same
  // (rule and frame) is already failing under OLD, not a break. The
  // response's own findings (HTTP-*, STREAM-*) are the same under any
  // contract and always break: the stream was not what a producer serves.
  const bool new_must = std::any_of(r.findings.begin(), r.findings.end(), [&](const producer_report::finding& f) {
    const bool response = f.rule.rfind("HTTP-", 0) == 0 || f.rule.rfind("STREAM-", 0) == 0;
    return f.severity == "must" && (f.new_since_old || prev.dialect == nullptr || response);
  });
  const bool broke = new_must || (!now.conforming() && now.must == 0);
  r.result = broke ? verdict::broke : (!now.conforming() || now.should > 0) ? verdict::warned : verdict::certified;
  return r;
}

// A scenario file's requests, each fetched once and validated against NEW
// and OLD as the request's dialect; its expectations are checked on NEW.
// Stops between requests when interrupted.
void run_scenario(const options& o, const std::string& file, report& r, const progress_callback& progress) {
  auto loaded = live::load_scenario_file(file, file, o.new_contract);
  if (!loaded.ok()) {
    producer_report p;
    p.source = file;
    p.result = verdict::broke;
    p.error = loaded.error_text();
    r.producers.push_back(std::move(p));
    return;
  }
  for (const auto& sc : loaded.value.scenarios) {
    for (const auto& q : sc.requests) {
      if (interrupted(o)) return;
      const std::string source = file + ": " + sc.name + " / " + q.name;
      say(progress, "certify: producer " + source);
      http::stream_request req;
      req.url = q.url;
      req.method = q.method.empty() ? (q.body.empty() ? "GET" : "POST") : q.method;
      req.headers = q.headers;
      req.body = q.body;
      req.timeout_s = q.limits.timeout_s;
      req.idle_timeout_s = q.limits.idle_timeout_s;
      req.max_bytes = q.limits.max_bytes;
      req.stop = o.interrupt;
      const auto cap = live::fetch_sampled(req, q.limits.max_events, q.limits.max_time_s, q.limits.parser);
      producer_report p = check_producer(o, cap, live::redact(source, loaded.value.secrets),
                                         q.dialect == "wire" ? o.producer_dialect : q.dialect, &q.expect);
      r.producers.push_back(std::move(p));
    }
  }
}

// One consumer process and its hello, re-said after each restart; never
// restarted once the run is interrupted.
struct consumer_session {
  adapter_process proc;
  const options& o;
  consumer_session(const std::string& command, const options& opts) : proc(command), o(opts) {}

  result<harness::adapter_info> hello() {
    return harness::say_hello(proc, std::max(o.timeout, std::chrono::milliseconds(10000)));
  }

  // One parse exchange: the answer, or an outcome (error / timeout) and why.
  struct reply {
    std::optional<conf::answer> answer;
    conf::outcome failure = conf::outcome::pass;
    std::string why;
  };
  reply parse(const std::string& id, const std::string& layer, const std::vector<std::string>& chunks) {
    reply out;
    if (interrupted(o)) {
      proc.kill();
      out.failure = conf::outcome::error;
      out.why = "interrupted";
      return out;
    }
    if (!proc.running()) {
      if (auto h = hello(); !h) {
        proc.kill();
        out.failure = conf::outcome::error;
        out.why = "the restarted consumer did not say hello: " + h.error().message;
        return out;
      }
    }
    std::vector<std::string_view> views(chunks.begin(), chunks.end());
    const std::string request = harness::parse_request_line(id, layer, views);
    const exchange ex = proc.exchange_line(request, o.timeout);
    if (ex.status != exchange_status::ok) {
      out.failure = ex.status == exchange_status::timeout ? conf::outcome::timeout : conf::outcome::error;
      out.why = (ex.status == exchange_status::timeout ? "timed out: " : "the consumer died: ") + ex.detail;
      const std::string tail = proc.stderr_tail();
      if (!tail.empty())
        out.why += " (stderr: " + ssec::escape(tail.substr(tail.size() > 300 ? tail.size() - 300 : 0)) + ")";
      proc.kill();
      return out;
    }
    out.answer = harness::decode_answer(ex.line, id, false);
    if (!out.answer->malformed.empty()) proc.kill();
    return out;
  }
};

const conf::consumer_profile* profile_named(const options& o, const std::string& name) {
  for (const auto& p : o.profiles) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

void grade_static(consumer_report& r, const conf::consumer_profile& p, const options& o) {
  r.profile = p.file;
  r.static_findings = conf::check_profile(p, *o.new_contract, o.old_contract.get());
}

// A probe's grade under one chunking: the answer to its stream against the
// answer to its baseline.
conf::probe_result grade_once(consumer_session& s, const conf::probe& p, const std::string& dialect,
                              const dl::dialect_spec& d, const consumer_session::reply& baseline, const std::string& id,
                              const std::vector<std::string>& chunks) {
  if (!baseline.answer) {
    return {conf::probe_grade::broke, baseline.failure, "on the baseline stream, without the probe: " + baseline.why};
  }
  const auto reply = s.parse(id, dialect, chunks);
  if (!reply.answer) return {conf::probe_grade::broke, reply.failure, reply.why};
  return conf::grade_probe(p, d, *baseline.answer, *reply.answer);
}

// Two reasons are the same failure when they differ only in numbers (frame
// indexes, offsets, generated sample values).
// What the reference decodes is left out: OLD's and NEW's reference decoders
// may differ where the consumer's answer does not.
std::string reason_key(conf::outcome o, const std::string& reason) {
  std::string key(conf::to_string(o));
  key += ':';
  for (const char ch : reason.substr(0, reason.find("; the reference decodes"))) {
    if (ch < '0' || ch > '9') key += ch;
  }
  return key;
}

// OLD's side of the probes of one baseline, run on demand: OLD's probes
// (built from OLD's catalog alone) and OLD's baseline answer.
struct old_side {
  std::vector<conf::probe> probes;
  std::optional<consumer_session::reply> baseline;
  const dl::dialect_spec* d = nullptr;

  const conf::probe* find(const std::string& id) const {
    for (const auto& p : probes) {
      if (p.id == id) return &p;
    }
    return nullptr;
  }
};

// What OLD gives for NEW's probe `p` that broke under chunking `k`: OLD's
// probe of the same id under the same chunking, or (a probe of what NEW
// changes, which OLD has not) OLD's baseline alone.
conf::probe_result old_result(consumer_session& s, const options& o, const std::string& dialect, old_side& old,
                              const conf::probe& p, const conf::chunking& k) {
  if (old.d == nullptr || old.probes.empty()) return {conf::probe_grade::tolerated, conf::outcome::pass, ""};
  if (!old.baseline)
    old.baseline = s.parse("probe/old/" + dialect + "/baseline", dialect, {old.probes.front().baseline_stream()});
  if (const conf::probe* same = old.find(p.id)) {
    for (const auto& ok : conf::probe_chunkings(*same, o.probe_random)) {
      if (ok.name() != k.name()) continue;
      return grade_once(s, *same, dialect, *old.d, *old.baseline, "probe/old/" + same->id + "/" + ok.name(),
                        conf::probe_chunks(*same, ok));
    }
  }
  if (!old.baseline->answer) {
    return {conf::probe_grade::broke, old.baseline->failure,
            "on the baseline stream, without the probe: " + old.baseline->why};
  }
  if (old.baseline->answer->dialect_rejection) {
    return {conf::probe_grade::broke, conf::outcome::fail,
            "rejects the baseline stream, without the probe: " + *old.baseline->answer->dialect_rejection};
  }
  return {conf::probe_grade::tolerated, conf::outcome::pass, ""};
}

void run_probes_on(consumer_session& s, const options& o, const std::string& dialect,
                   const std::vector<conf::probe>& probes, old_side& old, const std::string& baseline_name,
                   consumer_report& r, const progress_callback& progress) {
  if (probes.empty()) return;
  const dl::dialect_spec& d = *o.new_contract->dialect(dialect);
  const std::string baseline_id =
      "probe/" + dialect + "/baseline" + (baseline_name == "generated" ? "" : "@" + baseline_name);
  // The full baseline (a terminal probe carries a cut one).
  const auto full =
      std::find_if(probes.begin(), probes.end(), [](const conf::probe& p) { return p.klass != "terminal"; });
  const auto baseline =
      s.parse(baseline_id, dialect, {(full != probes.end() ? *full : probes.front()).baseline_stream()});
  std::size_t done = 0;
  for (const auto& p : probes) {
    if (interrupted(o)) return;  // the probe in progress is dropped with its consumer
    probe_report pr{
        p.id, p.klass, p.description, "", baseline_name, conf::probe_grade::tolerated, conf::outcome::pass, "",
        "",   "",      false,         ""};
    for (const auto& f : p.frames) {
      if (f.baseline < 0 || f.changed) pr.injected += (pr.injected.empty() ? "" : " ") + ssec::quote(f.block);
    }
    // A probe on a cut baseline (terminal) has its own baseline answer.
    std::optional<consumer_session::reply> own;
    if (p.klass == "terminal") own = s.parse(baseline_id + "/" + p.id, dialect, {p.baseline_stream()});
    const consumer_session::reply& base = own ? *own : baseline;
    for (const auto& k : conf::probe_chunkings(p, o.probe_random)) {
      const auto chunks = conf::probe_chunks(p, k);
      const conf::probe_result g = grade_once(s, p, dialect, d, base, "probe/" + p.id + "/" + k.name(), chunks);
      if (interrupted(o)) return;
      if (g.grade == conf::probe_grade::broke) {
        pr.grade = g.grade;
        pr.outcome = g.outcome;
        pr.reason = g.reason;
        pr.chunking = k.name();
        const std::string baseline_bytes = p.baseline_stream();
        std::vector<std::string_view> views(chunks.begin(), chunks.end());
        if (!base.answer) views = {baseline_bytes};
        pr.reproduce = conf::describe_chunks(views, 400);
        const conf::probe_result then = old_result(s, o, dialect, old, p, k);
        if (then.grade == conf::probe_grade::broke) {
          pr.old_reason = then.reason;
          pr.existing = reason_key(then.outcome, then.reason) == reason_key(g.outcome, g.reason);
        }
        break;
      }
      if (g.grade == conf::probe_grade::adopted) pr.grade = g.grade;
    }
    switch (pr.grade) {
      case conf::probe_grade::tolerated: ++r.tolerated; break;
      case conf::probe_grade::adopted: ++r.adopted; break;
      case conf::probe_grade::broke: ++(pr.existing ? r.existing : r.broke); break;
    }
    r.probes.push_back(std::move(pr));
    say(progress, "  " + r.name + ": probe " + std::to_string(++done) + "/" + std::to_string(probes.size()) + " " +
                      p.id + ": " + std::string(conf::to_string(r.probes.back().grade)) +
                      (r.probes.back().existing ? " (already under OLD)" : ""));
  }
}

// The types a consumer may stop on by design, as the agent document's loop
// stops on `error`: a type named `error`, or one a followed_only_by rule
// lets only the terminal frames follow.
std::vector<std::string> abort_candidates(const dl::dialect_spec& d) {
  std::vector<std::string> out;
  if (d.event("error") != nullptr) out.push_back("error");
  for (const auto* rule : d.rules) {
    if (rule->check.kind != dl::check_kind::followed_only_by) continue;
    for (const auto& t : rule->check.types) {
      if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
    }
  }
  return out;
}

// The probes on the generated baseline, then on each recorded one of the
// dialect; OLD's side of each, for relative verdicts. A consumer whose
// profile names no aborts_on and that rejects the generated baseline is
// tried without each abort candidate: the first that makes the baseline
// pass is taken as its aborts_on (consumer_report::aborts_on_inferred).
void run_probes(consumer_session& s, const options& o, const std::string& dialect,
                const conf::consumer_profile* profile, consumer_report& r, const progress_callback& progress) {
  std::vector<std::string> exclude = profile != nullptr ? profile->aborts_on : std::vector<std::string>{};
  auto probes = conf::make_probes(*o.new_contract, o.old_contract.get(), dialect, exclude);
  if (exclude.empty() && !probes.empty()) {
    const auto first = s.parse("probe/" + dialect + "/baseline/aborts", dialect, {probes.front().baseline_stream()});
    if (first.answer && first.answer->dialect_rejection) {
      for (const auto& t : abort_candidates(*o.new_contract->dialect(dialect))) {
        auto without = conf::make_probes(*o.new_contract, o.old_contract.get(), dialect, {t});
        if (without.empty() || without.front().baseline_stream() == probes.front().baseline_stream()) continue;
        const auto again =
            s.parse("probe/" + dialect + "/baseline/aborts-" + t, dialect, {without.front().baseline_stream()});
        if (again.answer && !again.answer->dialect_rejection && again.answer->malformed.empty()) {
          exclude = {t};
          r.aborts_on_inferred.push_back(t);
          probes = std::move(without);
          break;
        }
      }
    }
  }
  old_side old;
  old.d = o.old_contract->dialect(dialect);
  if (old.d != nullptr) old.probes = conf::make_probes(*o.old_contract, nullptr, dialect, exclude);
  run_probes_on(s, o, dialect, probes, old, "generated", r, progress);
  for (const auto& b : o.baselines) {
    if (b.dialect != dialect) continue;
    if (interrupted(o)) return;
    const auto on = conf::make_probes_on(*o.new_contract, o.old_contract.get(), dialect, b.frames, b.name, exclude);
    old_side old_on;
    old_on.d = old.d;
    if (old.d != nullptr)
      old_on.probes = conf::make_probes_on(*o.old_contract, nullptr, dialect, b.frames, b.name, exclude);
    run_probes_on(s, o, dialect, on, old_on, b.name, r, progress);
  }
}

// Whether a case result is a failure that can break a consumer: an error or
// timeout, or (rejections_count) the consumer rejecting the stream.
bool case_failed(const harness::case_result& c, bool rejections_count) {
  if (c.outcome == conf::outcome::error || c.outcome == conf::outcome::timeout) return true;
  return rejections_count && c.outcome == conf::outcome::fail && c.failure &&
         c.failure->first_difference == "the adapter rejected the stream";
}

std::string case_message(const harness::case_result& c) {
  if (c.failure && c.failure->received.rfind("(rejected: ", 0) == 0) return c.path + ": " + c.failure->received;
  return c.path + ": " + c.reason;
}

// NEW's cases of the layer on the consumer. A failing case (case_failed) is
// then run from OLD's cases of the same path: failing there too it is
// already failing under OLD; passing there it breaks the consumer; a case
// OLD lacks breaks it on an error or timeout only.
void run_cases(const options& o, const std::string& command, const std::string& dialect,
               const std::vector<conf::test_case>& cases, const std::vector<conf::test_case>& old_cases,
               consumer_report& r) {
  harness::selection sel;
  sel.layers = {dialect};
  const auto selected = harness::select_cases(cases, sel);
  harness::run_options ro;
  ro.impl = command;
  ro.plan = o.case_plan;
  ro.timeout.base = o.timeout;
  ro.interrupt = o.interrupt;
  if (interrupted(o)) return;
  const auto result = harness::run_cases(selected, ro);
  if (interrupted(o)) return;  // dropped with its consumer
  if (!result.setup_error.empty()) {
    r.case_failures.push_back(result.setup_error);
    r.cases["error"] += selected.size();
    r.case_broke += selected.size();
    return;
  }
  std::map<std::string, const conf::test_case*> old_by_path;
  for (const auto& c : old_cases) old_by_path.emplace(c.path(), &c);
  std::vector<const harness::case_result*> failing;
  std::vector<conf::test_case> rerun;
  for (const auto& c : result.cases) {
    ++r.cases[std::string(conf::to_string(c.outcome))];
    const auto old = old_by_path.find(c.path);
    if (old == old_by_path.end()) {
      if (!case_failed(c, false)) continue;
      ++r.case_new_broke;
      ++r.case_broke;
      if (r.case_failures.size() < 5) r.case_failures.push_back(case_message(c) + " (a case OLD has not)");
      continue;
    }
    if (!case_failed(c, true)) continue;
    failing.push_back(&c);
    rerun.push_back(*old->second);
  }
  if (failing.empty() || interrupted(o)) return;
  const auto before = harness::run_cases(harness::select_cases(rerun, sel), ro);
  if (interrupted(o)) return;
  std::map<std::string, const harness::case_result*> then;
  for (const auto& c : before.cases) then.emplace(c.path, &c);
  for (const auto* c : failing) {
    const auto old = then.find(c->path);
    const bool existing = before.setup_error.empty() && old != then.end() && case_failed(*old->second, true);
    if (existing) {
      ++r.case_existing;
      if (r.case_existing_failures.size() < 5) r.case_existing_failures.push_back(case_message(*c));
      continue;
    }
    ++r.case_broke;
    if (r.case_failures.size() < 5) {
      r.case_failures.push_back(case_message(*c) +
                                (old != then.end() ? " (OLD's case passed or differed without a rejection)" : ""));
    }
  }
}

verdict consumer_verdict(const consumer_report& r) {
  if (!r.error.empty() || r.broke > 0 || r.case_broke > 0) return verdict::broke;
  bool warn = r.existing > 0 || r.case_existing > 0;
  for (const auto& f : r.static_findings) {
    if (f.level == conf::change_level::err) return verdict::broke;
    warn = warn || f.level == conf::change_level::warn;
  }
  return warn ? verdict::warned : verdict::certified;
}

// The subjects in the order run() runs them, named as report::unfinished
// lists them.
std::vector<std::string> subject_order(const options& o) {
  std::vector<std::string> out{"reference"};
  for (const auto& url : o.producer_urls) out.push_back("producer " + url);
  for (const auto& file : o.captures) out.push_back("producer " + file);
  for (const auto& file : o.scenarios) out.push_back("scenario " + file);
  for (const auto& command : o.consumers) out.push_back("consumer " + command);
  for (const auto& p : o.profiles) out.push_back("profile " + p.file);
  return out;
}

// Which changed dialect each subject checked (report::dialects). A profile
// dialect (profile_of) with no subject of its own is checked through its
// base when the base is.
void add_dialect_checks(report& r, const options& o) {
  std::vector<std::string> changed;
  for (const auto& c : r.changes) {
    if (c.dialect.empty() || c.rule.rfind("VERSION_", 0) == 0 || (c.reader == "INFO" && c.writer == "INFO")) continue;
    if (std::find(changed.begin(), changed.end(), c.dialect) == changed.end()) changed.push_back(c.dialect);
  }
  const auto checkers = [&](const std::string& d) {
    std::vector<std::string> by;
    for (const auto& p : r.producers) {
      if (p.dialect == d && p.error.empty()) by.push_back("producer " + p.source);
    }
    for (const auto& c : r.consumers) {
      if (std::find(c.dialects.begin(), c.dialects.end(), d) == c.dialects.end() || !c.error.empty()) continue;
      by.push_back((c.command.empty() ? "profile " + c.profile : "consumer " + c.name));
    }
    return by;
  };
  if (changed.empty()) {
    // Nothing on the wire changed: the run checked something when a subject ran.
    dialect_check all{"*", {}, ""};
    for (const auto& p : r.producers) all.checked_by.push_back("producer " + p.source);
    for (const auto& c : r.consumers) {
      all.checked_by.push_back((c.command.empty() ? "profile " + c.profile : "consumer " + c.name));
    }
    r.dialects.push_back(std::move(all));
    return;
  }
  for (const auto& d : changed) {
    dialect_check dc{d, checkers(d), ""};
    if (dc.checked_by.empty()) {
      const dl::dialect_spec* spec = o.new_contract->dialect(d);
      if (spec == nullptr) spec = o.old_contract->dialect(d);
      if (spec != nullptr && !spec->profile_of.empty()) {
        dc.checked_by = checkers(spec->profile_of);
        if (!dc.checked_by.empty()) dc.via = spec->profile_of;
      }
    }
    r.dialects.push_back(std::move(dc));
  }
}

report run_subjects(const options& o, const std::atomic<int>* signal, const progress_callback& progress);

}  // namespace

report run(const options& given, const progress_callback& progress) {
  // One flag stops the lower layers (the engine, HTTP fetches): the caller's
  // signal, or -1 past the deadline, copied by a watcher within 20 ms.
  // run_subjects also reads the caller's signal itself: the signal ends the
  // consumers at once (interrupt.hpp), and a consumer ended by it in the
  // watcher's 20 ms must read as interrupted, never as broken.
  std::atomic<int> stop_flag{0};
  std::atomic<bool> finished{false};
  options o = given;
  o.interrupt = &stop_flag;
  const auto deadline =
      steady::now() + std::chrono::duration_cast<steady::duration>(std::chrono::duration<double>(given.deadline_s));
  std::thread watch([&] {
    while (!finished.load()) {
      if (given.interrupt != nullptr && given.interrupt->load() != 0) stop_flag.store(given.interrupt->load());
      else if (given.deadline_s > 0 && steady::now() > deadline && stop_flag.load() == 0) stop_flag.store(-1);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  report r = run_subjects(o, given.interrupt, progress);
  finished.store(true);
  watch.join();
  r.allow_unchecked = given.allow_unchecked;
  r.fail_on_existing = given.fail_on_existing;
  add_dialect_checks(r, o);
  return r;
}

namespace {

report run_subjects(const options& o, const std::atomic<int>* signal, const progress_callback& progress) {
  const auto started = steady::now();
  report r;
  r.old_name = o.old_name;
  r.new_name = o.new_name;
  if (!o.old_contract->files().empty()) r.old_version = o.old_contract->files().front().catalog_version;
  if (!o.new_contract->files().empty()) r.new_version = o.new_contract->files().front().catalog_version;

  // Subjects run in subject_order; `done` counts those finished. Interrupted,
  // the report keeps them and lists the rest as unfinished.
  const std::vector<std::string> order = subject_order(o);
  std::size_t done = 0;
  std::set<std::string> used_profiles;  // graded with their consumer
  const auto caught = [&] { return signal != nullptr ? signal->load() : 0; };
  const auto stopped = [&] { return caught() != 0 || interrupted(o); };
  const auto stop = [&] {
    if (const int sig = caught(); sig != 0) r.interrupted_by = sig;
    else if (const int flag = o.interrupt->load(); flag < 0) r.deadline_reached = true;
    else r.interrupted_by = flag;
    for (std::size_t i = done; i < order.size(); ++i) {
      const bool graded = std::any_of(used_profiles.begin(), used_profiles.end(),
                                      [&](const std::string& file) { return order[i] == "profile " + file; });
      if (!graded) r.unfinished.push_back(order[i]);
    }
    r.seconds = std::chrono::duration<double>(steady::now() - started).count();
    return r;
  };

  say(progress, "certify: diff " + o.old_name + " -> " + o.new_name);
  add_diff(r, *o.old_contract, *o.new_contract);

  say(progress, "certify: generating the cases of NEW and OLD");
  std::vector<std::string> errors;
  const auto cases = generated_cases(*o.new_contract, o.tags, errors);
  const auto old_cases = generated_cases(*o.old_contract, o.tags, errors);
  std::set<std::string> old_paths;
  for (const auto& c : old_cases) old_paths.insert(c.path());
  for (const auto& e : errors) r.reference.first_failures.push_back("generated case does not load: " + e);
  r.reference.disagreements += errors.size();
  say(progress, "certify: " + std::to_string(cases.size()) + " cases of NEW on the reference");
  run_reference(o, cases, old_paths, r.reference);
  if (stopped()) {
    report out = stop();
    out.unfinished.front() +=
        ": " + std::to_string(out.reference.cases) + " of " + std::to_string(cases.size()) + " cases checked";
    return out;
  }
  ++done;

  for (const auto& url : o.producer_urls) {
    if (stopped()) return stop();
    say(progress, "certify: producer " + url);
    http::stream_request req;
    req.url = url;
    req.timeout_s = o.producer_timeout_s;
    req.stop = o.interrupt;
    const auto cap = live::fetch(req, o.producer_max_events);
    if (stopped()) return stop();
    r.producers.push_back(check_producer(o, cap, url, o.producer_dialect));
    ++done;
  }
  for (const auto& file : o.captures) {
    if (stopped()) return stop();
    say(progress, "certify: producer " + file);
    auto cap = live::load_capture_or_stream(file);
    if (!cap) {
      producer_report p;
      p.source = file;
      p.result = verdict::broke;
      p.error = cap.error().to_string();
      r.producers.push_back(std::move(p));
    } else {
      r.producers.push_back(check_producer(o, cap.value(), cap.value().source, o.producer_dialect));
    }
    ++done;
  }
  for (const auto& file : o.scenarios) {
    if (stopped()) return stop();
    run_scenario(o, file, r, progress);
    if (stopped()) return stop();  // its requests that finished stay reported
    ++done;
  }

  for (const auto& command : o.consumers) {
    if (stopped()) return stop();
    consumer_report c;
    c.command = command;
    consumer_session s(command, o);
    const auto hello = s.hello();
    if (stopped()) return stop();
    if (!hello) {
      c.name = command;
      c.error = hello.error().message;
      c.result = verdict::broke;
      r.consumers.push_back(std::move(c));
      ++done;
      continue;
    }
    c.name = hello->name;
    const conf::consumer_profile* profile = profile_named(o, c.name);
    if (profile != nullptr) {
      used_profiles.insert(profile->file);
      grade_static(c, *profile, o);
    }
    for (const auto& layer : hello->layers) {
      if (o.new_contract->dialect(layer) == nullptr) continue;
      c.dialects.push_back(layer);
      say(progress, "certify: consumer " + c.name + " (" + layer + "): probes");
      run_probes(s, o, layer, profile, c, progress);
      if (stopped()) return stop();  // the consumer in progress is dropped
      say(progress, "certify: consumer " + c.name + " (" + layer + "): the cases of NEW");
      run_cases(o, command, layer, cases, old_cases, c);
      if (stopped()) return stop();
    }
    s.proc.stop();
    if (c.dialects.empty()) c.error = "the consumer speaks none of the new contract's dialects";
    c.result = consumer_verdict(c);
    r.consumers.push_back(std::move(c));
    ++done;
  }
  for (const auto& p : o.profiles) {
    if (stopped()) return stop();
    ++done;
    if (used_profiles.count(p.file) != 0) continue;
    consumer_report c;
    c.name = p.name;
    c.dialects = {p.dialect};
    grade_static(c, p, o);
    c.result = consumer_verdict(c);
    r.consumers.push_back(std::move(c));
  }
  r.seconds = std::chrono::duration<double>(steady::now() - started).count();
  return r;
}

}  // namespace

}  // namespace ssec::certify
