// SPDX-License-Identifier: MIT
#include "ssec/harness/engine.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include <nlohmann/json.hpp>

#include "ssec/adapter/protocol.hpp"
#include "ssec/adapter/wire_json.hpp"
#include "ssec/live/client_server.hpp"
#include "ssec/support/base64.hpp"
#include "ssec/support/text.hpp"

namespace ssec::harness {

namespace conf = ssec::conformance;
using nlohmann::json;
using steady = std::chrono::steady_clock;

std::string case_path(const conf::test_case& c) { return c.path(); }

bool glob_match(std::string_view pattern, std::string_view text) noexcept {
  // Iterative matcher: remember the last `*` and retry from one character further.
  std::size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::vector<const conf::test_case*> select_cases(const std::vector<conf::test_case>& all, const selection& s) {
  const auto any_match = [](const std::vector<std::string>& globs, std::string_view text) {
    return std::any_of(globs.begin(), globs.end(), [&](const std::string& g) { return glob_match(g, text); });
  };
  std::vector<const conf::test_case*> out;
  for (const auto& c : all) {
    const std::string path = case_path(c);
    if (!s.layers.empty() &&
        std::find(s.layers.begin(), s.layers.end(), std::string(conf::to_string(c.layer))) == s.layers.end()) {
      continue;
    }
    if (!s.run.empty() && !any_match(s.run, path)) continue;
    if (any_match(s.skip, path)) continue;
    if (s.part && !s.part->holds(std::string_view(path))) continue;
    if (!s.filter.empty() && !glob_match(s.filter, path) && !glob_match(s.filter, c.name) &&
        std::none_of(c.tags.begin(), c.tags.end(), [&](const std::string& t) { return glob_match(s.filter, t); })) {
      continue;
    }
    out.push_back(&c);
  }
  return out;
}

bool shard::holds(std::string_view key) const noexcept {
  // FNV-1a's low bits are weak (its lowest bit is the parity of the odd
  // bytes): a 64-bit finalizer (MurmurHash3's fmix64) spreads all of them.
  std::uint64_t h = fnv1a(key);
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h % count == index - 1;
}

std::string shard::name() const { return std::to_string(index) + "/" + std::to_string(count); }

result<shard> shard_from_string(std::string_view text) {
  const auto slash = text.find('/');
  shard s;
  const auto number = [](std::string_view digits, std::uint64_t& n) {
    const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    return !digits.empty() && ec == std::errc() && ptr == digits.data() + digits.size();
  };
  if (slash == std::string_view::npos || !number(text.substr(0, slash), s.index) ||
      !number(text.substr(slash + 1), s.count) || s.count == 0 || s.count > 1000000 || s.index == 0 ||
      s.index > s.count) {
    return error{"a shard is K/N with 1 <= K <= N <= 1000000 (e.g. 2/4), not `" + std::string(text) + "`"};
  }
  return s;
}

result<conf::chunking> chunking_from_name(std::string_view name) {
  const auto number = [](std::string_view digits) -> std::optional<std::uint64_t> {
    std::uint64_t n = 0;
    const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (digits.empty() || ec != std::errc() || ptr != digits.data() + digits.size()) return std::nullopt;
    return n;
  };
  using kind = conf::chunking::kind;
  if (name == "whole") return conf::chunking{kind::whole, 0};
  if (name == "as-written") return conf::chunking{kind::as_written, 0};
  if (name == "bytes") return conf::chunking{kind::bytes, 0};
  if (name.starts_with("split@")) {
    if (auto n = number(name.substr(6))) return conf::chunking{kind::split, *n};
  } else if (name.starts_with("random(seed=") && name.ends_with(")")) {
    if (auto n = number(name.substr(12, name.size() - 13))) return conf::chunking{kind::random, *n};
  }
  return error{"unknown chunking `" + std::string(name) +
               "` (known: whole, as-written, bytes, split@N, random(seed=N), as the reports name them)"};
}

result<adapter_info> say_hello(adapter_process& proc, std::chrono::milliseconds timeout) {
  const auto fail = [&](const std::string& reason) -> result<adapter_info> {
    const std::string tail = proc.stderr_tail();
    return error{reason + (tail.empty() ? "" : "\nits stderr ended with:\n" + tail)};
  };
  const exchange ex =
      proc.exchange_line(dump_line(json{{"op", "hello"}, {"protocol", adapter_protocol_version}}), timeout);
  switch (ex.status) {
    case exchange_status::ok: break;
    case exchange_status::timeout: return fail("the adapter did not answer hello: " + ex.detail);
    case exchange_status::crashed: return fail("the adapter ended before answering hello: " + ex.detail);
    case exchange_status::oversized: return fail("the adapter's hello answer is too long: " + ex.detail);
    case exchange_status::not_running: return fail("the adapter could not be started: " + ex.detail);
  }
  const json j = json::parse(ex.line, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return fail("the adapter's hello answer is not a JSON object: " + ex.line.substr(0, 200));
  if (j.contains("error")) return fail("the adapter refused hello: " + j["error"].dump());
  if (j.value("op", json()) != "hello")
    return fail("the adapter's hello answer has no \"op\":\"hello\": " + ex.line.substr(0, 200));
  if (j.value("protocol", json()) != adapter_protocol_version) {
    return fail("the adapter speaks protocol " + j.value("protocol", json()).dump() + ", not " +
                std::to_string(adapter_protocol_version));
  }
  adapter_info info;
  if (!j.contains("name") || !j["name"].is_string()) return fail("the adapter's hello has no string \"name\"");
  if (!j.contains("version") || !j["version"].is_string()) return fail("the adapter's hello has no string \"version\"");
  info.name = j["name"];
  info.version = j["version"];
  if (!j.contains("layers") || !j["layers"].is_array()) return fail("the adapter's hello has no \"layers\" array");
  for (const auto& l : j["layers"]) {
    if (!l.is_string()) return fail("the adapter's \"layers\" holds a non-string: " + l.dump());
    info.layers.push_back(l);
  }
  if (j.contains("capabilities")) {
    if (!j["capabilities"].is_array()) return fail("the adapter's \"capabilities\" is not an array");
    std::vector<std::string> caps;
    for (const auto& cap : j["capabilities"]) {
      if (!cap.is_string()) return fail("the adapter's \"capabilities\" holds a non-string: " + cap.dump());
      caps.push_back(cap);
    }
    info.capabilities = std::move(caps);
  }
  if (j.contains("max_in_flight")) {
    const json& n = j["max_in_flight"];
    if (!n.is_number_unsigned() || n.get<std::uint64_t>() == 0)
      return fail("the adapter's \"max_in_flight\" is not a positive integer: " + n.dump());
    info.max_in_flight = static_cast<std::size_t>(std::min<std::uint64_t>(n.get<std::uint64_t>(), 1u << 20));
  }
  return info;
}

std::string request_id(std::string_view path, std::string_view chunking) {
  std::string id(path);
  id += '@';
  id += chunking;
  return id;
}

std::optional<std::string> answer_id(std::string_view line) {
  const json j = json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("id") || !j["id"].is_string()) return std::nullopt;
  return j["id"].get<std::string>();
}

std::chrono::milliseconds time_budget::for_request(std::size_t request_bytes, std::size_t chunks) const noexcept {
  // In double-precision milliseconds: exact enough, and no integer overflow.
  const double ms = static_cast<double>(base.count()) +
                    static_cast<double>(per_mib.count()) * static_cast<double>(request_bytes) / (1024.0 * 1024.0) +
                    static_cast<double>(per_kchunk.count()) * static_cast<double>(chunks) / 1000.0;
  return std::chrono::milliseconds(static_cast<std::int64_t>(std::ceil(ms)));
}

std::string parse_request_line(std::string_view id, std::string_view layer,
                               const std::vector<std::string_view>& chunks) {
  // Base64 text needs no JSON escaping; the id and layer go through the JSON library.
  std::size_t size = 64 + id.size() * 2 + layer.size() * 2;
  for (const auto c : chunks) size += (c.size() + 2) / 3 * 4 + 3;
  std::string line;
  line.reserve(size);
  line += R"({"op":"parse","id":)";
  line += dump_line(json(std::string(id)));
  line += R"(,"layer":)";
  line += dump_line(json(std::string(layer)));
  line += R"(,"chunks":[)";
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    if (i > 0) line.push_back(',');
    line.push_back('"');
    base64_append(line, chunks[i]);
    line.push_back('"');
  }
  line += "]}";
  return line;
}

std::string shell_quote(std::string_view s) {
  std::string out = "'";
  for (const char ch : s) {
    if (ch == '\'') out += "'\\''";
    else out.push_back(ch);
  }
  return out + "'";
}

namespace {

std::string join(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& i : items) s += (s.empty() ? "" : ", ") + i;
  return s;
}

// An extra answer (16.11): the adapter answered request `id` of the case in
// result slot `slot` once more. Amends that case's result.
using blame_callback = std::function<void(std::size_t slot, const std::string& id, const std::string& line)>;

// One worker's adapter: says hello again after every restart, because a
// restarted process is a new protocol session.
struct worker_adapter {
  adapter_process proc;
  const run_options& options;
  // The requests this session answered, newest last (bounded): an answer
  // naming one of them again is an extra answer, blamed on its case.
  std::deque<std::pair<std::string, std::size_t>> answered;
  blame_callback blame;
  worker_adapter(const run_options& o) : proc(o.impl, o.max_answer_bytes), options(o) {}

  // Empty when ready, else why not.
  std::string ready() {
    if (proc.running()) return {};
    answered.clear();  // a new session
    if (const auto hello = say_hello(proc, options.hello_timeout); !hello) {
      proc.kill();
      return "the restarted adapter did not say hello: " + hello.error().message;
    }
    return {};
  }
  void note_answered(std::string id, std::size_t slot) {
    answered.emplace_back(std::move(id), slot);
    if (answered.size() > 4096) answered.pop_front();
  }
  std::optional<std::size_t> slot_of(std::string_view id) const {
    for (auto it = answered.rbegin(); it != answered.rend(); ++it) {
      if (it->first == id) return it->second;
    }
    return std::nullopt;
  }
  // The session ends: lines the adapter still wrote are extra answers.
  void finish() {
    for (const auto& line : proc.finish()) {
      if (const auto id = answer_id(line)) {
        if (const auto slot = slot_of(*id); slot && blame) blame(*slot, *id, line);
      }
    }
    answered.clear();
  }
};

std::string extra_answer_reason(const std::string& id) {
  return "the adapter answered request \"" + id + "\" more than once (an extra answer is an adapter error)";
}

// "budget 102887 ms = 5000 ms base + 28.00 MiB x 500 ms + 4194.312 thousand chunks x 20 ms".
std::string describe_budget(const time_budget& b, std::size_t request_bytes, std::size_t chunks) {
  char text[200];
  std::snprintf(
      text, sizeof text, "budget %lld ms = %lld ms base + %.2f MiB x %lld ms + %.3f thousand chunks x %lld ms",
      static_cast<long long>(b.for_request(request_bytes, chunks).count()), static_cast<long long>(b.base.count()),
      static_cast<double>(request_bytes) / (1024.0 * 1024.0), static_cast<long long>(b.per_mib.count()),
      static_cast<double>(chunks) / 1000.0, static_cast<long long>(b.per_kchunk.count()));
  return text;
}

bool interrupted(const run_options& o) { return o.interrupt != nullptr && o.interrupt->load() != 0; }

// A client case (tools/docs/client-cases.md): the script is played by
// `server`, the adapter's client connects to it (the `connect` operation),
// and what the server saw is graded with the client's answer.
case_result run_client(worker_adapter& adapter, const conf::test_case& c, case_result r, std::size_t slot,
                       live::client_server* server) {
  const run_options& o = adapter.options;
  const auto& script = *c.client;
  const auto started = steady::now();
  r.chunkings_run = 1;
  const auto detail = [&](std::string received, std::string first_difference) {
    failure_detail d;
    d.chunking = "connect";
    d.received = std::move(received);
    d.first_difference = std::move(first_difference);
    d.reproduce = o.reproduce_prefix + " --layer client --run " + shell_quote(r.path);
    return d;
  };
  const auto broke = [&](outcome how, std::string why, std::string received = "(no answer)") {
    r.outcome = how;
    r.reason = why;
    r.failure = detail(std::move(received), std::move(why));
    r.failure->stderr_tail = adapter.proc.stderr_tail();
    r.seconds = std::chrono::duration<double>(steady::now() - started).count();
    return r;
  };
  if (server == nullptr) return broke(outcome::error, "the server that plays client scripts could not start");
  if (std::string why = adapter.ready(); !why.empty()) return broke(outcome::error, why);
  const std::string url = server->add(script, r.path);
  const std::string id = request_id(r.path, "connect");
  const json request{{"op", "connect"},
                     {"id", id},
                     {"url", url},
                     {"close_after_events", script.close_after_events},
                     {"limit_ms", static_cast<std::int64_t>(script.limit_ms)}};
  if (const auto sent = adapter.proc.send_line(dump_line(request)); !sent) {
    server->remove(url);
    adapter.proc.kill();
    return broke(outcome::error, "the adapter could not be started: " + sent.error().message);
  }
  // The client runs up to its limit; the answer then has the usual budget.
  const auto budget = std::chrono::milliseconds(static_cast<std::int64_t>(script.limit_ms)) + o.timeout.base;
  const exchange ex = adapter.proc.next_line(budget);
  if (ex.status != exchange_status::ok) {
    server->remove(url);
    adapter.proc.kill();
    if (ex.status == exchange_status::timeout) return broke(outcome::timeout, "timed out: " + ex.detail);
    return broke(outcome::error, ex.status == exchange_status::crashed ? "the adapter crashed: " + ex.detail
                                                                       : "no answer: " + ex.detail);
  }
  const conf::answer answer = decode_answer(ex.line, id, true);
  const json j = json::parse(ex.line, nullptr, false);
  std::string ended =
      j.is_object() && j.contains("ended") && j["ended"].is_string() ? j["ended"].get<std::string>() : "";
  std::string malformed = answer.malformed;
  if (malformed.empty() && !answer.wire->error && ended != "closed" && ended != "failed" && ended != "limit") {
    malformed = "the answer's \"ended\" is not \"closed\", \"failed\" or \"limit\"";
  }
  if (!malformed.empty()) {
    server->remove(url);
    adapter.proc.kill();
    return broke(outcome::error, "malformed answer: " + malformed, ex.line.substr(0, 2000));
  }
  adapter.note_answered(id, slot);
  // Requests that must not come: awaited a little after the answer.
  const auto settle_until = steady::now() + std::chrono::milliseconds(static_cast<std::int64_t>(script.settle_ms));
  while (steady::now() < settle_until && !interrupted(o)) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  conf::client_observation seen = server->observed(url);
  server->remove(url);
  seen.answer = *answer.wire;
  seen.ended = std::move(ended);
  const conf::grade graded = conf::grade_client(c, seen, o.strict);
  if (const auto& m = graded.mismatch) {
    r.outcome = graded.outcome;
    r.chunkings_failed = 1;
    r.reason = m->first_difference;
    r.failure = detail(m->received, m->first_difference);
    r.failure->expected = m->expected;
  }
  r.seconds = std::chrono::duration<double>(steady::now() - started).count();
  return r;
}

case_result run_one(worker_adapter& adapter, const adapter_info& info, const conf::test_case& c, std::size_t slot,
                    live::client_server* clients) {
  const run_options& o = adapter.options;
  const auto started = steady::now();
  case_result r;
  r.c = &c;
  r.path = case_path(c);
  const std::string layer(conf::to_string(c.layer));
  if (std::find(info.layers.begin(), info.layers.end(), layer) == info.layers.end()) {
    r.outcome = outcome::skip;
    r.reason = "the adapter does not implement layer " + layer;
    return r;
  }
  if (c.layer == conf::layer::client) return run_client(adapter, c, std::move(r), slot, clients);
  if (c.layer != conf::layer::wire && !c.has_dialect_events) {
    r.outcome = outcome::skip;
    r.reason = "the case checks producer findings only; an adapter answers events";
    return r;
  }
  if (c.limits) {
    // Our own limits (impl cases): protocol 1 cannot tell an adapter about them.
    r.outcome = outcome::skip;
    r.reason = "the case sets parser limits, which adapter protocol 1 cannot pass on";
    return r;
  }
  if (const auto missing = missing_capabilities(c, info.capabilities); !missing.empty()) {
    r.outcome = outcome::skip;
    r.reason = "needs capability " + join(missing) + ", which the adapter does not list";
    return r;
  }
  std::vector<conf::chunking> chunkings;
  if (o.only_chunking) chunkings.push_back(*o.only_chunking);
  else chunkings = conf::chunkings_for(c, o.plan);

  const auto detail = [&](const conf::chunking& k, std::string received, std::string first_difference) {
    const auto chunks = conf::chunks_of(c, k);
    failure_detail d;
    d.chunking = k.name();
    d.chunk_count = chunks.size();
    d.input = conf::describe_chunks(chunks);
    if (c.layer == conf::layer::wire) d.expected = conf::format_log(conf::external_view(c.events));
    d.received = std::move(received);
    d.first_difference = std::move(first_difference);
    d.reproduce = o.reproduce_prefix + " --run " + shell_quote(r.path) + " --chunking " + shell_quote(k.name());
    return d;
  };

  // Pipelining (adapter-protocol.md): up to `window` requests in flight,
  // bounded in bytes, answered in order. Each answer's budget starts when it
  // becomes the oldest unanswered request, as if the requests went one by one.
  struct flight {
    std::size_t k;
    std::string id;
    std::size_t request_bytes;
    std::size_t chunks;
  };
  std::deque<flight> flights;
  std::size_t bytes_in_flight = 0;
  const std::size_t window = std::max<std::size_t>(1, std::min(info.max_in_flight, o.max_in_flight));
  std::size_t next = 0;
  std::optional<outcome> broke;  // error / timeout: the case ends at once
  while (!broke && (next < chunkings.size() || !flights.empty())) {
    if (interrupted(o)) return r;  // dropped by run_cases
    while (next < chunkings.size() && flights.size() < window &&
           (flights.empty() || bytes_in_flight < o.max_bytes_in_flight)) {
      if (flights.empty()) {
        if (std::string why = adapter.ready(); !why.empty()) {
          ++r.chunkings_run;
          broke = outcome::error;
          r.reason = "the adapter could not be restarted";
          r.failure = detail(chunkings[next], "(no answer)", why);
          break;
        }
      }
      const conf::chunking& k = chunkings[next];
      const auto chunks = conf::chunks_of(c, k);
      flight f{next, request_id(r.path, k.name()), 0, chunks.size()};
      const std::string request = parse_request_line(f.id, layer, chunks);
      f.request_bytes = request.size();
      if (const auto sent = adapter.proc.send_line(request); !sent) {
        ++r.chunkings_run;
        broke = outcome::error;
        r.reason = "the adapter could not be started: " + sent.error().message;
        r.failure = detail(k, "(no answer)", r.reason);
        break;
      }
      bytes_in_flight += f.request_bytes;
      flights.push_back(std::move(f));
      ++next;
    }
    if (broke) break;
    const flight& f = flights.front();
    const conf::chunking& k = chunkings[f.k];
    const auto budget = o.timeout.for_request(f.request_bytes, f.chunks);
    const exchange ex = adapter.proc.next_line(budget);
    if (ex.status != exchange_status::ok) {
      if (interrupted(o)) return r;  // the adapter was stopped by the signal, not broken
      ++r.chunkings_run;
      broke = ex.status == exchange_status::timeout ? outcome::timeout : outcome::error;
      switch (ex.status) {
        case exchange_status::timeout:
          r.reason = "timed out: " + ex.detail + " (" + describe_budget(o.timeout, f.request_bytes, f.chunks) + ")";
          break;
        case exchange_status::crashed: r.reason = "the adapter crashed: " + ex.detail; break;
        case exchange_status::oversized: r.reason = "oversized answer: " + ex.detail; break;
        default: r.reason = "the adapter could not be started: " + ex.detail; break;
      }
      r.failure = detail(k, "(no answer)", r.reason);
      r.failure->stderr_tail = adapter.proc.stderr_tail();
      if (ex.status == exchange_status::timeout) {
        r.failure->budget = budget_detail{f.request_bytes, f.chunks, o.timeout, budget};
      }
      break;
    }
    const conf::answer answer = decode_answer(ex.line, f.id, c.layer == conf::layer::wire);
    if (!answer.malformed.empty()) {
      // An answer to a request already answered (16.11): the adapter's error
      // on the request it names; this request's own answer is still to come.
      if (const auto named = answer_id(ex.line); named && *named != f.id) {
        if (const auto earlier = adapter.slot_of(*named)) {
          if (*earlier != slot) {
            if (adapter.blame) adapter.blame(*earlier, *named, ex.line);
            continue;
          }
          ++r.chunkings_run;
          broke = outcome::error;
          r.reason = extra_answer_reason(*named);
          r.failure = detail(k, ex.line.substr(0, 2000), r.reason);
          r.failure->stderr_tail = adapter.proc.stderr_tail();
          break;
        }
      }
    }
    ++r.chunkings_run;
    const conf::grade graded = grade_answer(c, answer, o.strict);
    if (graded.outcome == outcome::error) {
      broke = outcome::error;
      r.reason = "malformed answer: " + answer.malformed;
      r.failure = detail(k, ex.line.substr(0, 2000), r.reason);
      r.failure->stderr_tail = adapter.proc.stderr_tail();
      break;
    }
    adapter.note_answered(f.id, slot);
    bytes_in_flight -= f.request_bytes;
    flights.pop_front();
    if (const auto& m = graded.mismatch) {
      ++r.chunkings_failed;
      if (!r.failure) {
        r.failure = detail(k, m->received, m->first_difference);
        r.failure->expected = m->expected;
      }
    }
  }
  // Whatever state it is in (an error, a timeout, answers still owed), the
  // next request gets a fresh adapter: its output may be out of step now.
  if (broke) adapter.proc.kill();
  if (broke) {
    r.outcome = *broke;
  } else if (r.chunkings_failed > 0) {
    r.outcome = mismatch_outcome(c.verdict, o.strict);
    r.reason = std::to_string(r.chunkings_failed) + " of " + std::to_string(r.chunkings_run) +
               " chunkings differ, first under " + r.failure->chunking;
  }
  r.seconds = std::chrono::duration<double>(steady::now() - started).count();
  return r;
}

}  // namespace

run_result run_cases(const std::vector<const conf::test_case*>& cases, const run_options& options,
                     const progress_callback& progress) {
  const auto started = steady::now();
  run_result result;
  result.selected = cases.size();
  const unsigned jobs =
      std::max(1u, std::min<unsigned>(options.jobs, static_cast<unsigned>(std::max<std::size_t>(cases.size(), 1))));
  std::vector<std::unique_ptr<worker_adapter>> adapters;
  adapters.push_back(std::make_unique<worker_adapter>(options));
  const auto info = say_hello(adapters.front()->proc, options.hello_timeout);
  if (!info) {
    adapters.front()->proc.kill();
    result.setup_error = info.error().message;
    return result;
  }
  result.adapter = *info;
  for (unsigned i = 1; i < jobs; ++i) adapters.push_back(std::make_unique<worker_adapter>(options));
  // Client cases need the server that plays their scripts (one for the run).
  std::unique_ptr<live::client_server> clients;
  if (std::any_of(cases.begin(), cases.end(), [](const conf::test_case* c) { return c->client.has_value(); })) {
    if (auto started = live::client_server::start()) clients = std::move(started.value());
  }

  result.cases.resize(cases.size());
  std::vector<char> finished(cases.size(), 0);
  std::atomic<std::size_t> next{0};
  std::mutex report_mutex;
  std::size_t done = 0;
  // An extra answer names a case this worker ran earlier: that case is the
  // adapter's error, whatever it was graded (the run's exit status follows).
  const blame_callback blame = [&](std::size_t slot, const std::string& id, const std::string& line) {
    const std::lock_guard lock(report_mutex);
    case_result& r = result.cases[slot];
    if (!finished[slot] || r.outcome == outcome::error) return;
    r.outcome = outcome::error;
    r.reason = extra_answer_reason(id);
    failure_detail d;
    d.chunking = id.substr(std::min(id.size(), r.path.size() + 1));
    d.received = line.substr(0, 2000);
    d.first_difference = r.reason;
    d.reproduce = options.reproduce_prefix + " --run " + shell_quote(r.path);
    if (const auto k = chunking_from_name(d.chunking)) {
      d.chunk_count = conf::chunks_of(*r.c, *k).size();
      d.input = conf::describe_chunks(conf::chunks_of(*r.c, *k));
      d.reproduce += " --chunking " + shell_quote(d.chunking);
    }
    r.failure = std::move(d);
  };
  const auto work = [&](worker_adapter& adapter) {
    adapter.blame = blame;
    for (std::size_t i = next++; i < cases.size() && !interrupted(options); i = next++) {
      case_result r = run_one(adapter, *info, *cases[i], i, clients.get());
      if (interrupted(options)) break;  // the case in progress did not finish
      const std::lock_guard lock(report_mutex);
      result.cases[i] = std::move(r);
      finished[i] = 1;
      ++done;
      if (progress) progress(done, cases.size(), result.cases[i]);
    }
    if (interrupted(options)) adapter.proc.kill();
    else adapter.finish();
  };
  std::vector<std::thread> threads;
  for (unsigned i = 1; i < jobs; ++i) threads.emplace_back(work, std::ref(*adapters[i]));
  work(*adapters.front());
  for (auto& t : threads) t.join();
  if (options.interrupt != nullptr && options.interrupt->load() != 0) {
    result.interrupted_by = options.interrupt->load();
    std::vector<case_result> kept;
    for (std::size_t i = 0; i < cases.size(); ++i) {
      if (finished[i]) kept.push_back(std::move(result.cases[i]));
    }
    result.cases = std::move(kept);
  }
  result.seconds = std::chrono::duration<double>(steady::now() - started).count();
  return result;
}

}  // namespace ssec::harness
