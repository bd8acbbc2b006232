// SPDX-License-Identifier: MIT
// The case generator (see generator.hpp), part 3: the cases and their YAML.
// Parts 1 and 2, frames and the model of what the reference must answer, are
// in generator_frames.cpp and generator_model.cpp (generator_parts.hpp).
#include "ssec/conformance/generator.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>

#include <nlohmann/json.hpp>

#include "generator_parts.hpp"
#include "sse/chunking.hpp"
#include "ssec/conformance/loader.hpp"
#include "ssec/conformance/log.hpp"
#include "ssec/support/text.hpp"

namespace ssec::conformance {
namespace {

using namespace gen;  // the generator's parts: generator_parts.hpp

// ---------------------------------------------------------------------------
// 3. Cases and their YAML

struct gen_case {
  std::string key;  // identity: what the id is derived from
  std::string name;
  std::vector<std::string> from;
  std::vector<std::string> tags;
  std::string verdict = "must";
  std::string file;  // "events" or "rules"
  stream s;
};

// One splitmix64 step from x: the wire layer's generator, so ids are the same
// on every platform.
std::uint64_t mix(std::uint64_t x) { return sse::chunking::splitmix64(x).next(); }

// A 4-character id from the identity's hash, rehashed until it is well formed
// and unused.
std::string make_id(std::string_view key, std::set<std::string>& used) {
  static constexpr std::string_view alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  std::uint64_t h = fnv1a(key);
  for (;;) {
    h = mix(h);
    std::string id;
    for (int i = 0; i < 4; ++i) id += alphabet[(h >> (5 * i)) & 31];
    if (is_valid_case_id(id) && used.insert(id).second) return id;
  }
}

std::vector<std::string> trace_refs(const dl::trace& t) {
  // Document lines are cited by name (`agent-service.txt:35`): the documents are not in the repository.
  std::vector<std::string> out(t.sources.begin(), t.sources.end());
  if (!t.decision.empty()) out.push_back("spec/DECISIONS.md#" + t.decision);
  return out;
}

std::string spec_file(const dl::location& where) {
  return "spec/" + std::filesystem::path(where.file).filename().string();
}

void add_unique(std::vector<std::string>& v, const std::vector<std::string>& more) {
  for (const auto& m : more) {
    if (!contains(v, m)) v.push_back(m);
  }
}

class case_builder {
 public:
  case_builder(const dl::dialect_spec& d) : d_(d) {}

  std::vector<gen_case> cases;

  void event_cases() {
    for (const auto& e : d_.events) {
      std::vector<std::string> from = trace_refs(e.origin);
      from.insert(from.begin(), spec_file(e.where) + "#" + d_.name + "." + e.type);
      const std::string base = d_.name + "/" + e.type;
      const std::vector<std::string> type_tags =
          e.type == "done" ? std::vector<std::string>{"terminal-frame"} : std::vector<std::string>{};
      const frame full = from_object(make_object(e, true));
      for (const variant v : all_variants) {
        add("events", base + "/full/" + std::string(variant_name(v)),
            e.type + ": full frame, " + std::string(variant_name(v)), from, merge({"full-frame"}, type_tags), v,
            with_context(d_, full, {}));
      }
      const frame minimal = from_object(make_object(e, false));
      add("events", base + "/minimal", e.type + ": minimal frame, defaults applied", from,
          merge({"minimal-frame"}, type_tags), pick(base + "/minimal"), with_context(d_, minimal, {}));
      for (const auto& f : e.fields) {
        const auto wrong = wrong_value(f);
        if (!wrong) continue;
        std::vector<std::string> ffrom = from;
        add_unique(ffrom, trace_refs(f.origin));
        const frame bad = with_key(full, f.key, *wrong);
        add("events", base + "/wrong-type/" + f.key,
            e.type + ": " + f.key + " with a " + std::string(json_type_name(*wrong)) + " value", ffrom, {"wrong-type"},
            pick(base + "/wrong-type/" + f.key), with_context(d_, bad, {}));
      }
      {
        frame extra = with_key(full, "unlistedField", ojson("extra-1"));
        add("events", base + "/extra", e.type + ": an extra field the catalog does not declare", from, {"extra-field"},
            pick(base + "/extra"), with_context(d_, extra, {}));
      }
      if (!e.fields.empty()) {
        const auto& f = e.fields.front();
        frame cased = with_key(with_key(full, f.key, std::nullopt), miscased(f.key), sample_value(f, true));
        std::vector<std::string> ffrom = from;
        add_unique(ffrom, trace_refs(f.origin));
        add("events", base + "/casing/" + f.key, e.type + ": key " + miscased(f.key) + " instead of " + f.key, ffrom,
            {"key-casing"}, pick(base + "/casing"), with_context(d_, cased, {}));
      }
    }
  }

  void shape_cases() {
    const std::vector<std::string> from{spec_file(d_.where) + "#" + d_.name};
    std::vector<std::string> shape_from = from;
    for (const auto& s : d_.shapes) add_unique(shape_from, trace_refs(s.origin));
    ojson unknown = ojson::object();
    unknown["type"] = "unlisted_type";
    for (const auto& f : d_.envelope) {
      if (f.required) unknown[f.key] = sample_value(f, false);
    }
    add("events", d_.name + "/unknown-type", "a type the catalog does not list is kept as unknown", shape_from,
        {"unknown-type"}, pick(d_.name + "/unknown-type"), with_context(d_, from_object(unknown), {}));
    add("events", d_.name + "/shape/plain", "plain text is kept whole", shape_from, {"frame-shape"}, variant::lf,
        with_context(d_, from_text("Hello world"), {}));
    add("events", d_.name + "/shape/no-type", "a JSON object without a type", shape_from, {"frame-shape"}, variant::lf,
        with_context(d_, from_text(R"({"text":"no type here"})"), {}));
    add("events", d_.name + "/shape/array", "JSON that is not an object", shape_from, {"frame-shape"}, variant::lf,
        with_context(d_, from_text("[1]"), {}));
    add("events", d_.name + "/shape/number-type", "a JSON object whose type is not a string", shape_from,
        {"frame-shape"}, variant::lf, with_context(d_, from_text(R"({"type":7})"), {}));
    if (!d_.error_prefix.empty()) {
      add("events", d_.name + "/shape/error", "an error frame: the prefix and one space removed", shape_from,
          {"frame-shape"}, variant::lf, with_context(d_, from_text(d_.error_prefix + " Rate limited"), {}));
      add("events", d_.name + "/shape/error-nospace", "an error frame without a space after the prefix", shape_from,
          {"frame-shape"}, variant::lf, with_context(d_, from_text(d_.error_prefix + "Rate limited"), {}));
    }
    if (!d_.error_wire_event.empty()) {
      frame f = from_text("Rate limited");
      f.event_line = d_.error_wire_event;
      std::vector<std::string> dfrom = shape_from;
      for (const auto& diff : d_.differences) {
        if (!diff.error_wire_event.empty()) add_unique(dfrom, trace_refs(diff.origin));
      }
      add("events", d_.name + "/shape/error-event", "an error frame sent as event: " + d_.error_wire_event, dfrom,
          {"frame-shape", "event-type"}, variant::lf, with_context(d_, f, {}));
    }
  }

  void rule_cases() {
    // A candidate type's context stream and its findings are the same for
    // every rule, so each is rendered once a dialect, not once a rule
    // (certify generates the cases of two catalogs a run).
    std::map<std::string, std::pair<stream, std::set<std::string>>> context_streams;
    const auto context_of = [&](const std::string& type) -> const std::pair<stream, std::set<std::string>>& {
      auto it = context_streams.find(type);
      if (it == context_streams.end()) {
        stream s{with_context(d_, minimal_frame(d_, type), {}), variant::lf, {}};
        auto findings = render(d_, s).findings;
        it = context_streams.emplace(type, std::pair{std::move(s), std::move(findings)}).first;
      }
      return it->second;
    };
    for (const auto* r : d_.rules) {
      if (r->check.kind == dl::check_kind::content_type) continue;  // needs an HTTP response, not a stream
      std::vector<std::string> from{spec_file(r->where) + "#" + r->id};
      add_unique(from, trace_refs(r->origin));
      const std::string verdict(dl::to_string(r->level));
      const std::string base = d_.name + "/rule/" + r->id;
      // Keeps: the context stream around a candidate, with the fewest findings (none, where possible).
      std::optional<std::pair<stream, std::size_t>> keep;
      for (const auto& t : candidates(*r)) {
        const auto& [s, f] = context_of(t);
        if (f.contains(r->id)) continue;
        if (!keep || f.size() < keep->second) keep = {s, f.size()};
      }
      if (keep) add_stream("rules", base + "/keeps", r->id + " kept", from, {"producer-rule"}, verdict, keep->first);
      // Breaks: the candidate stream with the fewest findings, this rule's
      // among them. The first with this rule's finding alone cannot be beaten
      // (the first of the fewest is kept), so the search ends there.
      std::optional<std::pair<stream, std::size_t>> brk;
      const auto alone = [&] { return brk && brk->second == 1; };
      for (const auto& t : candidates(*r)) {
        for (const auto& s : breaking(*r, t)) {
          const auto f = render(d_, s).findings;
          if (!f.contains(r->id)) continue;
          if (!brk || f.size() < brk->second) brk = {s, f.size()};
          if (alone()) break;
        }
        if (alone()) break;
      }
      std::vector<std::string> tags{"producer-rule"};
      if (r->check.kind == dl::check_kind::utf8) tags.push_back("invalid-utf8");
      if (r->check.kind == dl::check_kind::frame_terminated) tags.push_back("eof");
      if (r->check.kind == dl::check_kind::known_field) {
        tags.push_back("field-names");
        tags.push_back("unknown-field");
      }
      if (r->check.kind == dl::check_kind::type_key_casing) tags.push_back("key-casing");
      if (brk) add_stream("rules", base + "/breaks", r->id + " broken", from, tags, verdict, brk->first);
    }
  }

 private:
  static std::string_view json_type_name(const ojson& v) {
    if (v.is_string()) return "string";
    if (v.is_number()) return "number";
    if (v.is_boolean()) return "boolean";
    if (v.is_array()) return "array";
    if (v.is_object()) return "object";
    return "null";
  }

  static std::vector<std::string> merge(std::vector<std::string> a, const std::vector<std::string>& b) {
    add_unique(a, b);
    return a;
  }

  // A deterministic wire variant for a case that is not run in all of them.
  static variant pick(std::string_view key) { return all_variants[fnv1a(key) % std::size(all_variants)]; }

  void add(const std::string& file, const std::string& key, const std::string& name,
           const std::vector<std::string>& from, const std::vector<std::string>& tags, variant v,
           std::vector<frame> frames) {
    stream s{std::move(frames), v, {}};
    add_stream(file, key, name, from, merge(tags, variant_tags(v)), "must", s);
  }

  void add_stream(const std::string& file, const std::string& key, const std::string& name,
                  const std::vector<std::string>& from, const std::vector<std::string>& tags,
                  const std::string& verdict, const stream& s) {
    gen_case c;
    c.key = key;
    c.name = d_.name + " " + name;
    c.from = from;
    c.tags = merge({"generated", "json-payload"}, tags);
    c.verdict = verdict;
    c.file = file;
    c.s = s;
    cases.push_back(std::move(c));
  }

  // Event types a rule is about first, then every type of the dialect.
  std::vector<std::string> candidates(const dl::rule_spec& r) const {
    const auto& c = r.check;
    std::vector<std::string> out;
    for (const auto& p : c.fields) {
      if (p.type != "*") out.push_back(p.type);
    }
    add_unique(out, c.types);
    add_unique(out, c.close);
    add_unique(out, c.during);
    if (!c.open.empty()) add_unique(out, {c.open});
    for (const auto& e : d_.events) add_unique(out, {e.type});
    return out;
  }

  const dl::event_spec& spec(const std::string& type) const { return *d_.event(type); }

  std::string first_type_not_in(const std::vector<std::string>& a, const std::vector<std::string>& b) const {
    for (const auto& e : d_.events) {
      if (!contains(a, e.type) && !contains(b, e.type)) return e.type;
    }
    return "unlisted_type";
  }

  // Streams around a frame of type `t` that may break the rule (the caller
  // keeps one that does, by the model); none when that type cannot.
  std::vector<stream> breaking(const dl::rule_spec& r, const std::string& t) const {
    if (auto one = breaking_one(r, t)) return {*one};
    if (r.check.kind != dl::check_kind::field_required) return {};
    // Each required field the rule may claim, one stream apiece: which rule
    // reports a missing field depends on the more specific rules.
    std::vector<stream> out;
    const auto& e = spec(t);
    const frame minimal = from_object(make_object(e, false));
    for (const auto& f : e.fields) {
      if (f.required)
        out.push_back(stream{with_context(d_, with_key(minimal, f.key, std::nullopt), {}), variant::lf, {}});
    }
    return out;
  }

  // The one stream that breaks the rule around a frame of type `t`, or
  // nullopt (field_required: see breaking()).
  std::optional<stream> breaking_one(const dl::rule_spec& r, const std::string& t) const {
    const auto& c = r.check;
    const auto& e = spec(t);
    const frame minimal = from_object(make_object(e, false));
    const frame full = from_object(make_object(e, true));
    const auto ctx = [&](const frame& main, const std::vector<frame>& after = {}, context_options o = {}) {
      return stream{with_context(d_, main, after, o), variant::lf, {}};
    };
    switch (c.kind) {
      case dl::check_kind::utf8: {
        for (const auto& f : e.fields) {
          if (!full.object[f.key].is_string()) continue;
          frame bad = with_key(full, f.key, ojson(f.key + "-@@1"));
          bad.data.replace(bad.data.find("@@"), 2, "\xFF");
          return ctx(bad);
        }
        return std::nullopt;
      }
      case dl::check_kind::frame_terminated: {
        auto s = ctx(minimal);
        s.tail = minimal.data;
        return s;
      }
      case dl::check_kind::lf_line_ends: {
        auto s = ctx(minimal);
        s.how = variant::crlf;
        return s;
      }
      case dl::check_kind::single_data_line: {
        if (full.data.find(',') == std::string::npos) return std::nullopt;
        auto s = ctx(full);
        s.how = variant::multiline;
        return s;
      }
      case dl::check_kind::data_only: {
        auto s = ctx(minimal);
        s.how = variant::extras;
        return s;
      }
      case dl::check_kind::data_space: {
        frame f = minimal;
        f.no_space = true;
        return ctx(f);
      }
      case dl::check_kind::known_field: {
        // The frame again, its line named `Data`: no reader dispatches it.
        frame lost = from_text(minimal.data);
        lost.field = miscased("data");
        return ctx(minimal, {lost});
      }
      case dl::check_kind::json_object: return ctx(minimal, {from_text("plain text frame")});
      case dl::check_kind::object_has_type: return ctx(minimal, {from_text(R"({"text":"no type here"})")});
      case dl::check_kind::type_key_casing: {
        // The frame again with `Type` for `type`: plain text to every reader.
        ojson o = ojson::object();
        for (const auto& [k, v] : minimal.object.items()) o[k == "type" ? miscased(k) : k] = v;
        return ctx(minimal, {from_text(o.dump())});
      }
      case dl::check_kind::known_type: {
        ojson unknown = ojson::object();
        unknown["type"] = "unlisted_type";
        for (const auto& f : d_.envelope) {
          if (f.required) unknown[f.key] = sample_value(f, false);
        }
        return ctx(minimal, {from_object(unknown)});
      }
      case dl::check_kind::field_required: return std::nullopt;
      case dl::check_kind::field_type:
        for (const auto& f : e.fields) {
          if (const auto w = wrong_value(f)) return ctx(with_key(minimal, f.key, *w));
        }
        return std::nullopt;
      case dl::check_kind::key_casing:
        if (e.fields.empty()) return std::nullopt;
        return ctx(with_key(with_key(full, e.fields.front().key, std::nullopt), miscased(e.fields.front().key),
                            sample_value(e.fields.front(), true)));
      case dl::check_kind::undeclared_field: return ctx(with_key(minimal, "unlistedField", ojson("extra-1")));
      case dl::check_kind::unique_keys: {
        frame f = full;
        std::string key = "type";
        for (const auto& [k, v] : full.object.items()) {
          if (k != "type") {
            key = k;
            break;
          }
        }
        f.data = "{" + ojson(key).dump() + ":" + ojson(key == "type" ? ojson(t) : ojson("first-1")).dump() + "," +
                 f.data.substr(1);
        f.duplicate_keys = true;
        return ctx(f);
      }
      case dl::check_kind::forbidden_field:
        for (const auto& p : c.fields) {
          if (p.type == t && p.keys.size() == 1)
            return ctx(with_key(minimal, p.keys.front(), ojson(p.keys.front() + "-1")));
        }
        return std::nullopt;
      case dl::check_kind::forbidden_type:
        if (!contains(c.types, t)) return std::nullopt;
        return ctx(minimal);
      case dl::check_kind::refers: return ctx(minimal, {}, {.refers = false});
      case dl::check_kind::unique_value:
      case dl::check_kind::at_most_once: return ctx(minimal, {minimal});
      case dl::check_kind::constant_field:
      case dl::check_kind::increasing: {
        const auto* f = e.field(c.field);
        if (f == nullptr) return std::nullopt;
        const bool incr = c.kind == dl::check_kind::increasing;
        const ojson first = incr ? ojson(2) : sample_value(*f, false);
        const ojson second = incr ? ojson(1) : ojson(first.is_string() ? first.get<std::string>() + "-other" : "other");
        return ctx(with_key(minimal, c.field, first), {with_key(minimal, c.field, second)});
      }
      case dl::check_kind::pair: return ctx(minimal, {}, {.pair_open = false});
      case dl::check_kind::pair_closed: return ctx(minimal, {}, {.pair_close = false});
      case dl::check_kind::first_frame: return ctx(minimal, {}, {.first = false});
      case dl::check_kind::last_frame: return ctx(minimal, {}, {.last = false});
      case dl::check_kind::followed_only_by: {
        if (!contains(c.types, t)) return std::nullopt;
        return ctx(minimal, {minimal_frame(d_, first_type_not_in(c.allow, c.types))});
      }
      default: return std::nullopt;
    }
  }

  const dl::dialect_spec& d_;
};

std::string render_case(const dl::dialect_spec& d, const gen_case& c, const std::string& id) {
  const rendered r = render(d, c.s);
  std::ostringstream out;
  out << "- id: " << id << "\n";
  out << "  name: \"" << ssec::escape(c.name) << "\"\n";
  out << "  from:\n";
  for (const auto& f : c.from) out << "    - " << f << "\n";
  out << "  tags: [";
  for (std::size_t i = 0; i < c.tags.size(); ++i) out << (i ? ", " : "") << c.tags[i];
  out << "]\n";
  out << "  verdict: " << c.verdict << "\n";
  out << "  layer: " << d.name << "\n";
  out << "  input:\n";
  for (const auto& chunk : r.chunks) {
    for (const auto& piece : input_items(chunk)) out << "    - " << piece << "\n";
  }
  out << "  events: |\n";
  for (const auto& line : r.log) out << "    " << line << "\n";
  out << "  dialect_events: |\n";
  for (const auto& e : r.events) {
    // Members in the order of spec/FORMAT.md section 2, for the reader.
    ojson ordered = ojson::object();
    for (const char* key : {"kind", "type", "text", "fields", "raw"}) {
      if (e.contains(key)) ordered[key] = e[key];
    }
    out << "    " << ordered.dump(-1, ' ', true) << "\n";
  }
  if (r.findings.empty()) {
    out << "  conforming: true\n";
  } else {
    out << "  findings: [";
    std::size_t i = 0;
    for (const auto& f : r.findings) out << (i++ ? ", " : "") << f;
    out << "]\n";
  }
  return out.str();
}

}  // namespace

std::vector<generated_file> generate_cases(const sse::dialect::catalog& cat,
                                           const std::set<std::string>& reserved_ids) {
  std::set<std::string> used = reserved_ids;
  std::map<std::string, std::string> files;
  for (const auto& dp : cat.dialects()) {
    const auto& d = *dp;
    case_builder b(d);
    b.event_cases();
    b.shape_cases();
    b.rule_cases();
    for (const auto& c : b.cases) {
      const std::string name = d.name + "-" + c.file + ".yaml";
      auto& text = files[name];
      if (text.empty()) {
        text =
            "# GENERATED by `sse-conform generate-cases` from the catalogs (spec/*.yaml): do not edit.\n"
            "# Regenerate: sse-conform generate-cases --spec spec --out conformance/cases/generated\n"
            "# Layer " +
            d.name + ": " +
            (c.file == "events" ? "event types, fields and frame shapes" : "producer rules, kept and broken") + ".\n";
      }
      text += render_case(d, c, make_id(c.key, used));
    }
  }
  std::vector<generated_file> out;
  out.reserve(files.size());
  for (auto& [name, text] : files) out.push_back({name, std::move(text)});
  return out;
}

}  // namespace ssec::conformance
