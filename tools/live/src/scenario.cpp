// SPDX-License-Identifier: MIT
#include "ssec/live/scenario.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "sse/dialect/catalog.hpp"
#include "sse/dialect/decoder.hpp"
#include "ssec/support/input.hpp"
#include "ssec/support/text.hpp"
#include "ssec/support/yaml_reader.hpp"

namespace ssec::live {

namespace {

using ssec::yaml::entry;
using ssec::yaml::mapping;
using ssec::yaml::reader;

// --- loading -------------------------------------------------------------------

// A plain scalar (not quoted): how numbers and booleans must be written.
bool plain(const ssec::yaml::node& n) { return n.is_scalar() && n.tag() == "?"; }

std::optional<double> seconds_value(reader& ctx, const entry& e) {
  const ssec::yaml::node& n = e.value;
  double v = -1;
  if (plain(n)) {
    const std::string& s = n.scalar();
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) v = -1;
  }
  if (v < 0) {
    ctx.error(e, ssec::yaml::in_backticks(e.key) + " must be a number of seconds, 0 or more (unquoted)");
    return std::nullopt;
  }
  return v;
}

// ${NAME} expansion at load time, so an unset variable names its place. The
// expanded value is booked against the file's budget: a variable's value is
// as long as the environment allows, and aliases repeat the text that names it.
std::optional<std::string> expanded(reader& ctx, const ssec::yaml::node& n, const std::string& text,
                                    std::vector<std::string>& secrets, std::string_view key) {
  auto out = expand_env_braced(text, secrets);
  if (!out) {
    const std::string& why = out.error().message;  // "${NAME} is not set in the environment"
    const std::string variable = why.substr(0, why.find('}') + 1);
    ctx.error(n, "`" + std::string(key) + "` uses " + variable + ", which is not set in the environment");
    return std::nullopt;
  }
  if (!ctx.charge(n, out->size(), ssec::yaml::in_backticks(key))) return std::nullopt;
  return std::move(out).value();
}

// A body file is read only when it is a regular file whose size fits what is
// left of the file's budget, and never past that size: /dev/zero or a
// terminal would be read without end, a FIFO would block, a huge file would
// be read whole before anything checked it. A file that grows while it is
// read is refused too (its size is what was booked).
std::optional<std::string> body_file_bytes(reader& ctx, const entry& at, const std::filesystem::path& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec) {
    ctx.error(at, "`body_file`: " + ssec::error{ec.message(), path.string()}.to_string());
    return std::nullopt;
  }
  if (!std::filesystem::is_regular_file(status)) {
    ctx.error(at, "`body_file`: " + path.string() +
                      " is not a regular file (a device, a FIFO or a directory cannot be a request body)");
    return std::nullopt;
  }
  const std::uint64_t size = std::filesystem::file_size(path, ec);
  if (ec) {
    ctx.error(at, "`body_file`: " + ssec::error{ec.message(), path.string()}.to_string());
    return std::nullopt;
  }
  if (!ctx.charge(at.value, size, "`body_file` " + path.string())) return std::nullopt;
  std::string bytes;
  bytes.reserve(static_cast<std::size_t>(size));
  bool grew = false;
  const auto read = read_pieces(path.string(), 1 << 16, [&](std::string_view piece) {
    if (piece.size() > size - bytes.size()) {
      grew = true;
      return false;
    }
    bytes.append(piece);
    return true;
  });
  if (!read) {
    ctx.error(at, "`body_file`: " + read.error().to_string());
    return std::nullopt;
  }
  if (grew) {
    ctx.error(at, "`body_file`: " + path.string() + " grew past its size when it was checked (" +
                      ssec::yaml::size_text(size) + ") while it was read");
    return std::nullopt;
  }
  return bytes;
}

bool is_token(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
  });
}

// What `defaults:` and a request share; a request starts from the defaults.
struct request_fields {
  std::optional<std::string> dialect;
  std::optional<std::string> method;
  std::vector<std::pair<std::string, std::string>> headers;  // name as written, expanded value
  scenario_limits limits;
  bool resume = false;
};

bool load_limits(reader& ctx, const ssec::yaml::node& n, scenario_limits& lim) {
  const auto e = ctx.read_mapping(
      n, "`limits`",
      {"timeout_s", "idle_timeout_s", "max_time_s", "max_bytes", "max_events", "max_line", "max_event_data"});
  if (!e || !e->complete) return false;
  const std::size_t before = ctx.count();
  for (const auto& v : e->entries) {
    const std::string& key = v.key;
    if (key == "timeout_s" || key == "idle_timeout_s" || key == "max_time_s") {
      if (const auto s = seconds_value(ctx, v)) {
        (key == "timeout_s" ? lim.timeout_s : key == "idle_timeout_s" ? lim.idle_timeout_s : lim.max_time_s) = *s;
      }
    } else if (key == "max_bytes") {
      if (const auto c = ctx.unsigned_integer(v, "")) lim.max_bytes = *c;
    } else if (key == "max_events") {
      if (const auto c = ctx.unsigned_integer(v, "")) lim.max_events = static_cast<std::size_t>(*c);
    } else if (const auto c = ctx.unsigned_integer(v, "", 1)) {
      (key == "max_line" ? lim.parser.max_line : lim.parser.max_event_data) = static_cast<std::size_t>(*c);
    }
  }
  return ctx.count() == before;
}

bool load_headers(reader& ctx, const ssec::yaml::node& n, std::vector<std::string>& secrets,
                  std::vector<std::pair<std::string, std::string>>& headers) {
  const auto e = ctx.read_mapping(n, "`headers`", {});
  if (!e || !e->complete) return false;
  const std::size_t before = ctx.count();
  for (const auto& header : e->entries) {
    const std::string& name = header.key;
    if (!is_token(name)) {
      ctx.error(header.key_node, "`" + name + "` is not a valid header name");
      continue;
    }
    const auto value = ctx.text(header, "", true);
    if (!value) continue;
    // Two scans, not find_first_of: that one tests the set once per byte.
    if (value->find('\r') != std::string::npos || value->find('\n') != std::string::npos) {
      ctx.error(header.value, "the value of header `" + name + "` must be one line");
      continue;
    }
    auto v = expanded(ctx, header.value, *value, secrets, name);
    if (!v) continue;
    const auto lower = [](std::string s) {
      for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return s;
    };
    // A request's header replaces the default of the same name.
    std::erase_if(headers, [&](const auto& h) { return lower(h.first) == lower(name); });
    headers.emplace_back(name, std::move(*v));
  }
  return ctx.count() == before;
}

// dialect, method, headers, limits, resume: shared by defaults and requests.
void load_common(reader& ctx, const sse::dialect::catalog& contract, const mapping& e,
                 std::vector<std::string>& secrets, request_fields& f) {
  if (const entry* it = e.find("dialect")) {
    if (const auto d = ctx.text(*it, "", true)) {
      if (*d != "wire" && contract.dialect(*d) == nullptr) {
        std::string known = "wire";
        for (const auto& dialect : contract.dialects()) known += ", " + dialect->name;
        ctx.error(*it, "unknown dialect `" + *d + "` (known: " + known + ")");
      } else {
        f.dialect = *d;
      }
    }
  }
  if (const entry* it = e.find("method")) {
    if (const auto m = ctx.text(*it, "", true)) {
      if (m->empty() || !std::all_of(m->begin(), m->end(), [](char c) { return c >= 'A' && c <= 'Z'; })) {
        ctx.error(*it, "`method` must be an HTTP method in capitals (GET, POST, ...)");
      } else {
        f.method = *m;
      }
    }
  }
  if (const entry* it = e.find("headers")) load_headers(ctx, it->value, secrets, f.headers);
  if (const entry* it = e.find("limits")) load_limits(ctx, it->value, f.limits);
  if (const entry* it = e.find("resume")) {
    if (const auto b = ctx.boolean(*it, "")) f.resume = *b;
  }
}

std::vector<std::string> type_list(reader& ctx, const ssec::yaml::node& n, std::string_view key,
                                   const sse::dialect::dialect_spec* d, const std::string& dialect) {
  std::vector<std::string> out;
  if (!n.is_sequence()) {
    ctx.error(n, "`" + std::string(key) + "` must be a list of event types, e.g. [run_started, done]");
    return out;
  }
  for (const auto& item : n.items()) {
    const auto t = ctx.text(item, ssec::yaml::in_backticks(key), true);
    if (!t) continue;
    if (t->empty()) {
      ctx.error(item, "an event type in `" + std::string(key) + "` must not be empty");
      continue;
    }
    // With a dialect, a type must be one its catalog lists: a misspelt name
    // would make `excludes` pass vacuously and `includes` fail mysteriously.
    if (d != nullptr && *t != "(plain_text)" && *t != "(error_frame)" && d->event(*t) == nullptr) {
      ctx.error(
          item,
          "`" + *t + "` is not an event type of dialect " + dialect +
              " (see its catalog in spec/; frames that are not structured events are (plain_text) and (error_frame))");
      continue;
    }
    out.push_back(*t);
  }
  return out;
}

void load_expect(reader& ctx, const ssec::yaml::node& n, scenario_request& q) {
  const auto e = ctx.read_mapping(n, "`expect`", {"sequence", "includes", "excludes"});
  if (!e || !e->complete) return;
  for (const auto& [key, key_node, value] : e->entries) {
    auto types = type_list(ctx, value, key, q.spec, q.dialect);
    (key == "sequence"   ? q.expect.sequence
     : key == "includes" ? q.expect.includes
                         : q.expect.excludes) = std::move(types);
  }
  for (const auto& t : q.expect.excludes) {
    const auto required = [&](const std::vector<std::string>& v) {
      return std::find(v.begin(), v.end(), t) != v.end();
    };
    if (required(q.expect.sequence) || required(q.expect.includes)) {
      ctx.error(n, "`" + t + "` is both required and excluded");
    }
  }
}

// What a request copies from `defaults`, booked before the copy: aliases can
// repeat a short request thousands of times, each with the defaults' headers.
std::uint64_t copied_from_defaults(const request_fields& defaults) {
  std::uint64_t bytes = sizeof(scenario_request);
  for (const auto& [name, value] : defaults.headers) bytes += name.size() + value.size() + 2;
  return bytes;
}

// False when the file's budget is spent: the requests after it are not read
// (each would only say so again).
bool load_request(reader& ctx, const sse::dialect::catalog& contract, const ssec::yaml::node& n,
                  const request_fields& defaults, const std::filesystem::path& base_dir,
                  std::vector<std::string>& secrets, scenario& s) {
  const auto e = ctx.read_mapping(
      n, "a request",
      {"name", "url", "method", "headers", "body", "body_file", "dialect", "limits", "resume", "expect"});
  if (!e || !e->complete || !ctx.require(*e, "a request", {"name", "url"})) return true;
  const std::size_t before = ctx.count();
  if (!ctx.charge(n, copied_from_defaults(defaults), "this request")) return false;
  scenario_request q;
  q.line = ctx.line(n);
  if (const auto name = ctx.text(*e->find("name"), "", true)) q.name = *name;
  if (const auto& url = *e->find("url"); const auto written = ctx.text(url, "", true)) {
    q.shown_url = *written;
    if (auto x = expanded(ctx, url.value, *written, secrets, "url")) {
      q.url = std::move(*x);
      if (const auto valid = http::check_url(q.url); !valid) ctx.error(url.value, "`url`: " + valid.error().message);
    }
  }
  request_fields f = defaults;
  load_common(ctx, contract, *e, secrets, f);
  if (!f.dialect && !e->has("dialect")) {  // a bad dialect was reported already
    ctx.error(n, "a request is missing `dialect` (give it here or in `defaults`: wire, chat, code, workflow, agent)");
  } else if (f.dialect) {
    q.dialect = *f.dialect;
    q.spec = q.dialect == "wire" ? nullptr : contract.dialect(q.dialect);
  }
  q.method = f.method.value_or("");
  for (const auto& [k, v] : f.headers) q.headers.push_back(k + ": " + v);
  q.limits = f.limits;
  q.resume = f.resume;
  if (e->has("body") && e->has("body_file")) {
    ctx.error(e->find("body_file")->key_node, "give `body` or `body_file`, not both");
  } else if (const entry* body = e->find("body")) {
    if (const auto b = ctx.text(*body, "", true)) {
      if (auto x = expanded(ctx, body->value, *b, secrets, "body")) q.body = std::move(*x);
    }
  } else if (const entry* body_file = e->find("body_file")) {
    if (const auto file = ctx.text(*body_file, "", true)) {
      if (auto bytes = body_file_bytes(ctx, *body_file, base_dir / *file)) q.body = std::move(*bytes);
    }
  }
  if (q.spec != nullptr || q.dialect == "wire") {
    if (const entry* it = e->find("expect")) load_expect(ctx, it->value, q);
  }
  if (ctx.count() == before) s.requests.push_back(std::move(q));
  return true;
}

// False when the file's budget is spent (see load_request).
bool load_scenario(reader& ctx, const sse::dialect::catalog& contract, const ssec::yaml::node& n,
                   const request_fields& defaults, const std::filesystem::path& base_dir,
                   std::vector<std::string>& secrets, std::vector<scenario>& out) {
  const auto e = ctx.read_mapping(n, "a scenario", {"name", "requests"});
  if (!e || !e->complete || !ctx.require(*e, "a scenario", {"name", "requests"})) return true;
  scenario s;
  s.line = ctx.line(n);
  if (const auto name = ctx.text(*e->find("name"), "", true)) s.name = *name;
  const ssec::yaml::node& requests = e->find("requests")->value;
  if (!requests.is_sequence() || requests.size() == 0) {
    ctx.error(requests, "`requests` must be a non-empty list of requests");
    return true;
  }
  bool within_budget = true;
  for (const auto& r : requests.items()) {
    within_budget = load_request(ctx, contract, r, defaults, base_dir, secrets, s);
    if (!within_budget) break;
  }
  out.push_back(std::move(s));
  return within_budget;
}

}  // namespace

ssec::load_result<scenario_file> load_scenario_text(std::string_view text, std::string_view display,
                                                    const std::filesystem::path& base_dir,
                                                    std::shared_ptr<const sse::dialect::catalog> contract,
                                                    std::uint64_t build_budget) {
  ssec::load_result<scenario_file> result;
  result.value.display = std::string(display);
  if (!contract) {
    const auto& builtin = sse::dialect::builtin_catalog();
    if (!builtin.ok()) {
      result.errors = builtin.errors;
      return result;
    }
    contract = builtin.value;
  }
  result.value.contract = contract;
  reader ctx(std::string(display), result.errors, build_budget);
  const auto root = ssec::yaml::load_document(std::string(text), ctx.file());
  if (!root) {
    result.errors.push_back(root.error());
    return result;
  }
  if (!*root || root->is_null()) {
    result.errors.push_back(ssec::error{"the file is empty: it needs `version` and `scenarios`", std::string(display)});
    return result;
  }
  const auto e = ctx.read_mapping(*root, "the file", {"version", "defaults", "scenarios"});
  if (!e || !e->complete || !ctx.require(*e, "the file", {"version", "scenarios"})) return result;
  const entry& version = *e->find("version");
  if (const auto v = ctx.unsigned_integer(version, "");
      v && *v != static_cast<std::uint64_t>(scenario_format_version)) {
    ctx.error(version, "unsupported scenario format version " + std::to_string(*v) +
                           " (this sse-conform reads version " + std::to_string(scenario_format_version) + ")");
  }
  if (!result.ok()) return result;
  request_fields defaults;
  if (const entry* it = e->find("defaults")) {
    const auto d = ctx.read_mapping(it->value, "`defaults`", {"dialect", "method", "headers", "limits", "resume"});
    if (d && d->complete) load_common(ctx, *contract, *d, result.value.secrets, defaults);
  }
  const ssec::yaml::node& scenarios = e->find("scenarios")->value;
  if (!scenarios.is_sequence() || scenarios.size() == 0) {
    ctx.error(scenarios, "`scenarios` must be a non-empty list of scenarios");
    return result;
  }
  for (const auto& s : scenarios.items()) {
    if (!load_scenario(ctx, *contract, s, defaults, base_dir, result.value.secrets, result.value.scenarios)) break;
  }
  std::map<std::string, std::size_t> names;
  for (const auto& s : result.value.scenarios) {
    if (const auto [it, fresh] = names.emplace(s.name, s.line); !fresh) {
      ctx.error(s.line, 0,
                "duplicate scenario name `" + s.name + "` (first at line " + std::to_string(it->second) + ")");
    }
  }
  return result;
}

ssec::load_result<scenario_file> load_scenario_file(const std::filesystem::path& path, std::string_view display,
                                                    std::shared_ptr<const sse::dialect::catalog> contract) {
  auto text = read_document(path.string());
  if (!text) {
    ssec::load_result<scenario_file> r;
    r.value.display = std::string(display);
    r.errors.push_back(ssec::error{text.error().to_string(), std::string(display)});
    return r;
  }
  return load_scenario_text(text.value(), display, path.parent_path(), std::move(contract));
}

// --- expectations --------------------------------------------------------------

std::vector<typed_event> event_types(std::string_view bytes, const sse::dialect::dialect_spec* d,
                                     const sse::limits& lim, std::size_t stream) {
  std::vector<typed_event> out;
  std::optional<sse::dialect::decoder> dec;
  if (d != nullptr) dec.emplace(*d);
  struct visitor {
    std::vector<typed_event>* out;
    sse::dialect::decoder* dec;
    std::size_t stream;
    sse::action on_event(const sse::event_view& e) {
      std::string type;
      if (dec == nullptr) {
        type = e.type;
      } else {
        const auto& ev = dec->decode(sse::dialect::frame(e));
        using sse::dialect::event_kind;
        type = ev.kind == event_kind::plain_text ? "(plain_text)"
               : ev.kind == event_kind::error    ? "(error_frame)"
                                                 : std::string(ev.type);
      }
      out->push_back({std::move(type), out->size(), e.offset, stream});
      return sse::action::proceed;
    }
  } v{&out, dec ? &*dec : nullptr, stream};
  sse::parser<visitor> p(v, lim);
  if (!sse::is_fatal(p.feed(bytes).status)) p.finish();
  return out;
}

void check_expectations(const scenario_expect& x, const std::vector<typed_event>& seen, check_report& r) {
  const auto add = [&](check_finding f) {
    ++r.must;
    r.findings.push_back(std::move(f));
  };
  const auto first_of = [&](const std::string& type) {
    return std::find_if(seen.begin(), seen.end(), [&](const typed_event& e) { return e.type == type; });
  };
  const auto end_offset = r.bytes;
  std::vector<std::string> reported_missing;
  const auto missing = [&](const std::string& type, const std::string& why) {
    if (std::find(reported_missing.begin(), reported_missing.end(), type) != reported_missing.end()) return;
    reported_missing.push_back(type);
    add({"SCENARIO-REQUIRED-TYPE", "must", std::nullopt, end_offset,
         "the request must produce a `" + type + "` event" + why, "at least one " + type,
         "none in " + counted(seen.size(), "event"), 0});
  };
  // sequence: greedy, so each type is matched at its earliest possible place.
  std::size_t pos = 0;
  const typed_event* previous = nullptr;
  for (const auto& type : x.sequence) {
    const auto it = std::find_if(seen.begin() + static_cast<std::ptrdiff_t>(pos), seen.end(),
                                 [&](const typed_event& e) { return e.type == type; });
    if (it != seen.end()) {
      previous = &*it;
      pos = static_cast<std::size_t>(it - seen.begin()) + 1;
      continue;
    }
    const auto anywhere = first_of(type);
    if (anywhere == seen.end()) {
      missing(type, " (in `sequence`)");
      continue;
    }
    // It came, but only before the type it must follow.
    add({"SCENARIO-ORDER", "must", anywhere->frame, anywhere->offset,
         "`" + type + "` must come after `" + (previous ? previous->type : std::string()) + "` (frame " +
             (previous ? std::to_string(previous->frame + 1) : std::string("?")) + "), as `sequence` lists them",
         type + " after " + (previous ? previous->type : std::string()), type + " only before it", anywhere->stream});
  }
  for (const auto& type : x.includes) {
    if (first_of(type) == seen.end()) missing(type, " (in `includes`)");
  }
  for (const auto& type : x.excludes) {
    const auto it = first_of(type);
    if (it == seen.end()) continue;
    const auto n = std::count_if(seen.begin(), seen.end(), [&](const typed_event& e) { return e.type == type; });
    add({"SCENARIO-FORBIDDEN-TYPE", "must", it->frame, it->offset,
         "the request must not produce a `" + type + "` event", "no " + type, std::to_string(n) + " (first shown)",
         it->stream});
  }
}

// --- running -------------------------------------------------------------------

bool scenario_result::conforming() const noexcept {
  return std::all_of(requests.begin(), requests.end(), [](const request_result& r) { return r.report.conforming(); });
}

request_result run_request(const scenario_request& q, const scenario_options& o,
                           const std::vector<std::string>& secrets) {
  request_result out;
  out.name = q.name;
  out.line = q.line;
  http::stream_request req = event_stream_request(q.url, q.method, q.headers, q.body);
  out.method = req.method;
  req.timeout_s = q.limits.timeout_s;
  req.idle_timeout_s = q.limits.idle_timeout_s;
  req.max_bytes = q.limits.max_bytes;
  req.verify_tls = o.verify_tls;
  req.ca_file = o.ca_file;
  if (o.http2_prior_knowledge) req.version = http::http_version::http2_prior_knowledge;

  check_options opt;
  opt.dialect = q.spec;
  opt.limits = q.limits.parser;
  opt.max_events = q.limits.max_events;
  opt.chunking_seeds = o.chunking_seeds;
  opt.strict = o.strict;
  opt.heartbeat_s = o.heartbeat_s;

  capture first = fetch_sampled(req, q.limits.max_events, q.limits.max_time_s, opt.limits);
  first.source = q.shown_url;
  check_report report = analyze(first, opt);
  std::vector<typed_event> types;
  const std::string b1 = first.bytes();
  if (q.resume || o.resume) {
    capture second;
    second.status = -1;  // not fetched unless check_resumption reconnects
    check_resumption(req, q.limits.max_time_s, first, opt, report, &second);
    types = event_types(b1, q.spec, opt.limits, 0);
    if (second.status == 200 && report.resume) {
      // The second stream's new events: what it replayed was already counted.
      const std::uint64_t from = report.resume->new_from;
      const std::string b2 = second.bytes();
      auto more = event_types(std::string_view(b2).substr(static_cast<std::size_t>(from)), q.spec, opt.limits, 1);
      for (auto& t : more) t.offset += from;
      types.insert(types.end(), more.begin(), more.end());
    }
  } else {
    types = event_types(b1, q.spec, opt.limits, 0);
  }
  check_expectations(q.expect, types, report);
  for (const auto& t : types) {
    auto it =
        std::find_if(out.type_counts.begin(), out.type_counts.end(), [&](const auto& c) { return c.first == t.type; });
    if (it == out.type_counts.end()) out.type_counts.emplace_back(t.type, 1);
    else ++it->second;
  }
  out.report = redact(std::move(report), secrets);
  return out;
}

std::vector<scenario_result> run_scenarios(const scenario_file& f, const scenario_options& o) {
  std::vector<scenario_result> out;
  for (const auto& s : f.scenarios) {
    scenario_result r{s.name, s.line, {}};
    for (const auto& q : s.requests) r.requests.push_back(run_request(q, o, f.secrets));
    out.push_back(std::move(r));
  }
  return out;
}

// --- reports -------------------------------------------------------------------

namespace {

// `text` indented by `by`, without the `drop` each line starts with (the
// request's URL, already shown in its heading).
std::string indent(const std::string& text, std::string_view by, std::string_view drop) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    const auto nl = text.find('\n', start);
    const auto end = nl == std::string::npos ? text.size() : nl + 1;
    std::string_view line = std::string_view(text).substr(start, end - start);
    if (!drop.empty() && line.starts_with(drop)) line.remove_prefix(drop.size());
    out += std::string(by) + std::string(line);
    start = end;
  }
  return out;
}

std::string counts_text(const request_result& r) {
  if (r.type_counts.empty()) return "(no events)";
  std::string out;
  for (const auto& [type, n] : r.type_counts) out += (out.empty() ? "" : ", ") + type + " x" + std::to_string(n);
  return out;
}

}  // namespace

std::string to_text(const scenario_file& f, const std::vector<scenario_result>& results) {
  std::ostringstream out;
  std::size_t failed_scenarios = 0;
  for (const auto& s : results) {
    out << "scenario \"" << s.name << "\" (" << f.display << ":" << s.line << ")\n";
    std::size_t failed = 0, unchecked = 0;
    for (std::size_t i = 0; i < s.requests.size(); ++i) {
      const auto& r = s.requests[i];
      out << "  request " << i + 1 << " \"" << r.name << "\" (" << f.display << ":" << r.line << "): " << r.method
          << ' ' << r.report.source << '\n';
      out << indent(to_text(r.report), "    ", r.report.source.empty() ? std::string() : r.report.source + ": ");
      out << "    types: " << counts_text(r) << '\n';
      unchecked += r.setup_error();
      failed += !r.setup_error() && !r.report.conforming();
    }
    failed_scenarios += failed + unchecked != 0;
    out << "scenario \"" << s.name << "\": " << counted(s.requests.size(), "request") << ", " << failed
        << " NOT conforming"
        << (unchecked == 0 ? "" : ", " + std::to_string(unchecked) + " not checked (no connection)") << ": "
        << (failed != 0      ? "FAIL"
            : unchecked != 0 ? "NOT CHECKED"
                             : "PASS")
        << "\n\n";
  }
  out << f.display << ": " << counted(results.size(), "scenario") << ", " << failed_scenarios << " failed\n";
  return out.str();
}

nlohmann::ordered_json to_json(const scenario_file& f, const std::vector<scenario_result>& results) {
  nlohmann::ordered_json scenarios = nlohmann::ordered_json::array();
  std::size_t failed = 0;
  for (const auto& s : results) {
    nlohmann::ordered_json requests = nlohmann::ordered_json::array();
    for (const auto& r : s.requests) {
      nlohmann::ordered_json types = nlohmann::ordered_json::object();
      for (const auto& [type, n] : r.type_counts) types[type] = n;
      nlohmann::ordered_json j{{"name", r.name}, {"line", r.line}, {"method", r.method}};
      j["types"] = std::move(types);
      j["check"] = to_json(r.report);
      requests.push_back(std::move(j));
    }
    failed += !s.conforming();
    scenarios.push_back(
        {{"name", s.name}, {"line", s.line}, {"conforming", s.conforming()}, {"requests", std::move(requests)}});
  }
  return {{"format", "sse-conform-scenario-report"},
          {"version", scenario_format_version},
          {"file", f.display},
          {"scenarios", std::move(scenarios)},
          {"summary", {{"scenarios", results.size()}, {"failed", failed}, {"conforming", failed == 0}}}};
}

std::string to_junit(const scenario_file& f, const std::vector<scenario_result>& results) {
  std::vector<junit_suite> suites;
  for (const auto& s : results) {
    junit_suite suite{f.display + ": " + s.name, {}, true};
    for (const auto& r : s.requests) suite.reports.emplace_back(r.name, &r.report);
    suites.push_back(std::move(suite));
  }
  return to_junit(suites);
}

}  // namespace ssec::live
