// SPDX-License-Identifier: MIT
// Regenerates the fuzz seeds and dictionaries from the project's own data:
//   ssec_fuzz_seeds corpus SOURCE_DIR OUT_DIR   seeds for every harness, from
//       the conformance cases, the catalogs and the scenario files, as
//       OUT_DIR/<target>/<sha256>
//   ssec_fuzz_seeds check-corpus SOURCE_DIR    names every seed the corpus
//       command would write that SOURCE_DIR/corpus/<target>/ lacks; exit 1
//       if any (a seed's name is its hash, so a present name is its content)
//   ssec_fuzz_seeds dicts SOURCE_DIR OUT_DIR    catalog.dict and yaml.dict
// Deterministic: the same sources give the same files, so a test can check
// that the committed corpus/ and fuzz/*.dict are up to date. The check writes
// nothing: creating the eight thousand seed files took 5 s of system time.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "sha256.hpp"
#include "sse/dialect/catalog.hpp"
#include "ssec/conformance/loader.hpp"

namespace fs = std::filesystem;

namespace {

// Mirrors fuzz_input::bytes(max): a two-byte length, then the bytes.
void put_bytes(std::string& out, std::string_view s, std::size_t max) {
  const std::size_t n = std::min(s.size(), max);
  out.push_back(static_cast<char>((n >> 8) & 0xFF));
  out.push_back(static_cast<char>(n & 0xFF));
  out.append(s.substr(0, n));
}

// Writes each derived seed once as ROOT/<target>/<sha256>, or, checking,
// names the ones ROOT/<target>/ lacks.
class seed_writer {
 public:
  enum class mode { write, check };
  seed_writer(fs::path root, mode m) : root_(std::move(root)), mode_(m) {}
  void add(const std::string& target, const std::string& bytes) {
    if (bytes.size() > 65536) return;
    std::string name = ssec::fuzz::sha256_hex(bytes);
    if (!seen_.insert(target + '/' + name).second) return;
    const fs::path dir = root_ / target;
    if (mode_ == mode::check) {
      if (!fs::exists(dir / name)) {
        std::printf("stale: corpus/%s lacks %s\n", target.c_str(), name.c_str());
        ++missing_;
      }
      return;
    }
    fs::create_directories(dir);
    std::ofstream(dir / name, std::ios::binary) << bytes;
  }
  std::size_t count() const { return seen_.size(); }
  std::size_t missing() const { return missing_; }

 private:
  fs::path root_;
  mode mode_;
  std::set<std::string> seen_;
  std::size_t missing_ = 0;
};

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The scenario files of the repository: tools/examples/*.scenario.yaml and
// the worked example of tools/docs/scenario-format.md (its first yaml block,
// as scenario_live.the_documented_example_runs reads it).
std::vector<std::string> scenario_files(const fs::path& source) {
  std::vector<std::string> out;
  for (const auto& entry : fs::recursive_directory_iterator(source / "tools/examples")) {
    if (entry.path().filename().string().ends_with(".scenario.yaml")) out.push_back(read_file(entry.path()));
  }
  const std::string doc = read_file(source / "tools/docs/scenario-format.md");
  if (const auto start = doc.find("```yaml\n"); start != std::string::npos) {
    if (const auto end = doc.find("```\n", start + 8); end != std::string::npos) {
      out.push_back(doc.substr(start + 8, end - start - 8));
    }
  }
  return out;
}

// The variable sse_scenario_loader_fuzzer sets (to an http:// URL): a scenario
// seed with its ${NAME}s renamed to it loads past the expansion.
constexpr std::string_view fuzz_variable = "${SSEC_FUZZ_VAR}";

std::string with_fuzz_variable(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t close = text.substr(i).starts_with("${") ? text.find('}', i) : std::string_view::npos;
    if (close == std::string_view::npos) {
      out.push_back(text[i++]);
      continue;
    }
    out += fuzz_variable;
    i = close + 1;
  }
  return out;
}

// Seeds for the two YAML loaders are cut small: the loaders' time is YAML
// parsing, linear in the input, and a fuzzer mutating a 26 KB catalog or a
// 14 KB case file runs a few hundred times a CPU-second where 1-5 KB slices
// run several times faster and reach more code in the same time
// (tools/docs/benchmarks.md, "The fuzz harnesses"). Only slices that load are
// kept, so every seed starts the fuzzer inside the format.

bool catalog_loads(const std::string& text) {
  const sse::dialect::catalog_source source{"seed.yaml", text};
  return sse::dialect::load_catalogs(std::span<const sse::dialect::catalog_source>(&source, 1)).ok();
}

std::string emitted(const YAML::Node& node) {
  YAML::Emitter out;
  out << node;
  return out.c_str();
}

// A catalog cut to one event type of one dialect (no rules), and to one rule
// with the dialects it names cut to the event types its text mentions. A
// dialect that is a profile of, or takes its frames from, another brings that
// one along, cut the same way.
std::vector<std::string> catalog_slices(const std::string& text) {
  const YAML::Node doc = YAML::Load(text);
  const YAML::Node dialects = doc["dialects"];
  if (!dialects.IsSequence()) return {};
  const auto header = [&] {
    YAML::Node h(YAML::NodeType::Map);
    for (const auto& kv : doc) {
      const auto key = kv.first.as<std::string>();
      if (key != "dialects" && key != "rules") h[key] = YAML::Clone(kv.second);
    }
    return h;
  };
  const auto named = [&](const std::string& name) -> YAML::Node {
    for (const auto& d : dialects) {
      if (d["name"] && d["name"].as<std::string>() == name) return d;
    }
    return YAML::Node();
  };
  // The events of `d` whose type occurs in `mentions`, or its first one.
  const auto events_named_in = [](const YAML::Node& d, const std::string& mentions) {
    YAML::Node kept(YAML::NodeType::Sequence);
    for (const auto& e : d["events"]) {
      if (e["type"] && mentions.find(e["type"].as<std::string>()) != std::string::npos) kept.push_back(YAML::Clone(e));
    }
    if (kept.size() == 0 && d["events"].size() > 0) kept.push_back(YAML::Clone(d["events"][0]));
    return kept;
  };
  const auto with_base = [&](const YAML::Node& cut, const std::string& mentions) {
    std::vector<YAML::Node> out{cut};
    for (const char* key : {"profile_of", "frames_from"}) {
      if (!cut[key]) continue;
      const YAML::Node base = named(cut[key].as<std::string>());
      if (!base) continue;
      YAML::Node base_cut = YAML::Clone(base);
      if (base["events"]) {
        base_cut["events"] = events_named_in(base, mentions + (cut["differences"] ? emitted(cut["differences"]) : ""));
      }
      out.insert(out.begin(), base_cut);
    }
    return out;
  };
  const auto catalog_of = [&](const std::vector<YAML::Node>& cut_dialects, const YAML::Node* rule) {
    YAML::Node slice = header();
    for (const auto& d : cut_dialects) slice["dialects"].push_back(d);
    if (rule != nullptr) slice["rules"].push_back(YAML::Clone(*rule));
    return emitted(slice) + "\n";
  };
  std::vector<std::string> slices;
  for (const auto& d : dialects) {
    if (!d["events"] || d["events"].size() == 0) {
      slices.push_back(catalog_of(with_base(YAML::Clone(d), ""), nullptr));
      continue;
    }
    for (const auto& e : d["events"]) {
      YAML::Node cut = YAML::Clone(d);
      cut["events"] = YAML::Node(YAML::NodeType::Sequence);
      cut["events"].push_back(YAML::Clone(e));
      slices.push_back(catalog_of(with_base(cut, e["type"] ? e["type"].as<std::string>() : ""), nullptr));
    }
  }
  for (const auto& rule : doc["rules"]) {
    const std::string mentions = emitted(rule);
    std::vector<YAML::Node> cut_dialects;
    std::set<std::string> included;
    for (const auto& d : dialects) {
      bool named_by_rule = false;
      for (const auto& n : rule["dialects"])
        named_by_rule |= d["name"] && n.as<std::string>() == d["name"].as<std::string>();
      if (!named_by_rule) continue;
      YAML::Node cut = YAML::Clone(d);
      if (d["events"]) cut["events"] = events_named_in(d, mentions);
      for (const auto& part : with_base(cut, mentions)) {
        if (included.insert(part["name"].as<std::string>()).second) cut_dialects.push_back(part);
      }
    }
    if (!cut_dialects.empty()) slices.push_back(catalog_of(cut_dialects, &rule));
  }
  std::erase_if(slices, [](const std::string& slice) { return !catalog_loads(slice); });
  return slices;
}

// A case file cut to one case a seed: the lines from one `- ` at the start of
// a line to the next (comments before the first case dropped); only the cuts
// that load. Cut as text, so each input's double-quoted strings stay as written.
std::vector<std::string> case_slices(const std::string& text, const ssec::conformance::tag_list& tags) {
  std::vector<std::string> slices;
  std::size_t start = std::string::npos;
  const auto close = [&](std::size_t end) {
    if (start == std::string::npos) return;
    std::string slice = text.substr(start, end - start);
    if (ssec::conformance::load_cases_from_text(slice, "seed.yaml", "seed", tags).ok()) {
      slices.push_back(std::move(slice));
    }
  };
  for (std::size_t line = 0; line < text.size();) {
    const std::size_t next = std::min(text.find('\n', line), text.size() - 1) + 1;
    if (text.compare(line, 2, "- ") == 0) {
      close(line);
      start = line;
    }
    line = next;
  }
  close(text.size());
  return slices;
}

int write_corpus(const fs::path& source, const fs::path& out, seed_writer::mode mode) {
  std::vector<ssec::error> errors;
  const auto tags = ssec::conformance::load_tags(source / "spec/tags.yaml", "spec/tags.yaml", errors);
  const auto loaded = ssec::conformance::load_case_tree(source / "conformance/cases", "conformance/cases", tags);
  if (!errors.empty() || !loaded.ok()) {
    std::fprintf(stderr, "cannot load the cases:\n%s\n", loaded.error_text().c_str());
    return 1;
  }
  const auto& catalog = sse::dialect::builtin_catalog();
  if (!catalog.ok()) {
    std::fprintf(stderr, "cannot load the catalogs:\n%s\n", catalog.error_text().c_str());
    return 1;
  }
  const auto dialects = sse::dialect::builtin_dialect_names();
  seed_writer seeds(out, mode);
  for (const auto& c : loaded.value) {
    if (c.input.size() <= 4096) {
      seeds.add("sse_parse_fuzzer", std::string(1, '\0') + c.input);
      seeds.add("sse_parse_fuzzer", std::string(1, '\1') + c.input);
      // Default limits, three cuts of 1, 5 and 2 bytes repeated.
      seeds.add("sse_chunked_fuzzer", std::string("\x00\x03\x01\x05\x02", 5) + c.input);
      // Default limits, three reads of 1, 5 and 2 bytes repeated.
      seeds.add("sse_check_body_fuzzer", std::string("\x04\x00\x04\x01", 4) + c.input);
    }
    std::string roundtrip;
    for (const auto& line : c.events) {
      const auto* e = std::get_if<ssec::conformance::log_event>(&line);
      if (!e) continue;
      roundtrip.push_back('\0');
      put_bytes(roundtrip, e->event.type, 16);
      put_bytes(roundtrip, e->event.data, 64);
      roundtrip.push_back('\0');  // (flag & 3) == 0: write this event's id
      put_bytes(roundtrip, e->event.last_event_id, 8);
      for (std::size_t d = 0; d < dialects.size(); ++d) {
        std::string frame(1, static_cast<char>(d));
        put_bytes(frame, e->event.type, 12);
        seeds.add("sse_dialect_fuzzer", frame + e->event.data);
      }
    }
    if (!roundtrip.empty()) seeds.add("sse_roundtrip_fuzzer", roundtrip);
  }
  // Validator: for each dialect, every event type in catalog order with all its
  // fields present (value choice 0: the run id), then the same with each
  // event's fields left out, so both pairing and missing-field rules are hit.
  // The first byte's other bits cap each rule's stored findings: at one for
  // the seed with fields, at four for the seed without.
  for (std::size_t d = 0; d < dialects.size(); ++d) {
    const auto* dialect = sse::dialect::builtin_dialect(dialects[d]);
    for (const bool with_fields : {true, false}) {
      const std::size_t mode = with_fields ? 0x00 : 0x0C;
      std::string seed{static_cast<char>(d | mode), '\0'};
      for (std::size_t i = 0; i < dialect->events.size() && i < 64; ++i) {
        seed.push_back('\1');
        seed.push_back(static_cast<char>(i));
        for (std::size_t f = 0; f < dialect->events[i].fields.size(); ++f) {
          if (with_fields) seed.append(std::string("\x01\x00", 2));
          else seed.push_back('\0');
        }
      }
      seeds.add("sse_validator_fuzzer", seed);
    }
  }
  // Loaders: the real files, cut small (see catalog_slices and case_slices).
  for (const auto& entry : fs::recursive_directory_iterator(source / "spec")) {
    if (entry.path().extension() != ".yaml" || entry.path().filename() == "tags.yaml") continue;
    for (const auto& slice : catalog_slices(read_file(entry.path()))) {
      seeds.add("sse_catalog_loader_fuzzer", slice);
      seeds.add("sse_export_fuzzer", slice);
    }
  }
  // The hand-written cases and the client cases (their own keys: responses, requests).
  for (const fs::path& dir : {source / "conformance/cases/ours", source / "conformance/clients"}) {
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
      if (entry.path().extension() != ".yaml") continue;
      for (const auto& slice : case_slices(read_file(entry.path()), tags)) seeds.add("sse_case_loader_fuzzer", slice);
    }
  }
  for (const auto& text : scenario_files(source)) {
    seeds.add("sse_scenario_loader_fuzzer", text);
    seeds.add("sse_scenario_loader_fuzzer", with_fuzz_variable(text));
  }
  if (mode == seed_writer::mode::check) {
    std::printf("%zu of %zu derived seeds missing under %s\n", seeds.missing(), seeds.count(), out.c_str());
    return seeds.missing() == 0 ? 0 : 1;
  }
  std::printf("wrote %zu seeds under %s\n", seeds.count(), out.c_str());
  return 0;
}

// A dictionary entry in libFuzzer's syntax: printable ASCII kept, the rest
// \xNN. Not the case log escaper (ssec/support/escape.hpp): libFuzzer reads only this
// syntax, and its \xNN is a byte where the log's \uXXXX is a code point.
std::string dict_entry(std::string_view token) {
  std::string out = "\"";
  for (const char c : token) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7F && c != '"' && c != '\\') {
      out.push_back(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", u);
      out += buf;
    }
  }
  return out + "\"";
}

// The key a YAML line starts with (`key:` or `- key:`, any indentation), or empty.
std::string_view yaml_key_of(std::string_view line) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; };
  std::size_t i = 0;
  while (i < line.size() && space(line[i])) ++i;
  if (i + 1 < line.size() && line[i] == '-' && space(line[i + 1])) {
    ++i;
    while (i < line.size() && space(line[i])) ++i;
  }
  const std::size_t start = i;
  const auto first = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  if (i == line.size() || !first(line[i])) return {};
  while (i < line.size() && (first(line[i]) || (line[i] >= '0' && line[i] <= '9'))) ++i;
  return i < line.size() && line[i] == ':' ? line.substr(start, i - start) : std::string_view{};
}

int write_dicts(const fs::path& source, const fs::path& out) {
  const auto& catalog = sse::dialect::builtin_catalog();
  if (!catalog.ok()) {
    std::fprintf(stderr, "cannot load the catalogs:\n%s\n", catalog.error_text().c_str());
    return 1;
  }
  std::set<std::string> frame_tokens{"{",    "}",    "[",     "]", ":",  ",",    "\"type\"",
                                     "null", "true", "false", "0", "-1", "1e999"};
  for (const auto& d : catalog.value->dialects()) {
    if (!d->error_prefix.empty()) frame_tokens.insert(d->error_prefix);
    for (const auto& e : d->events) {
      frame_tokens.insert("\"" + e.type + "\"");
      for (const auto& f : e.fields) frame_tokens.insert("\"" + f.key + "\"");
    }
  }
  std::ofstream dialect_dict(out / "catalog.dict");
  dialect_dict << "# Generated by ssec_fuzz_seeds from spec/*.yaml: event types, field keys, JSON tokens.\n";
  for (const auto& t : frame_tokens) dialect_dict << dict_entry(t) << '\n';

  // YAML keys used by the catalogs, the case files and the scenario files,
  // plus YAML syntax and what the scenario harness's environment offers.
  // `authored:` is a catalog key the built-in files never use (spec/FORMAT.md, "Authored entries").
  std::set<std::string> yaml_tokens{": ",
                                    "- ",
                                    "[",
                                    "]",
                                    "{",
                                    "}",
                                    "\"",
                                    "'",
                                    "|",
                                    ">",
                                    "&a",
                                    "*a",
                                    "!!str",
                                    "---",
                                    "\n  ",
                                    "authored:",
                                    std::string(fuzz_variable)};
  const auto add_keys = [&](const std::string& text) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
      if (const auto key = yaml_key_of(line); !key.empty()) yaml_tokens.insert(std::string(key) + ":");
    }
  };
  for (const fs::path& dir : {source / "spec", source / "conformance/cases/ours", source / "conformance/clients"}) {
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
      if (entry.path().extension() == ".yaml") add_keys(read_file(entry.path()));
    }
  }
  for (const auto& text : scenario_files(source)) add_keys(text);
  std::ofstream yaml_dict(out / "yaml.dict");
  yaml_dict << "# Generated by ssec_fuzz_seeds from spec/*.yaml, conformance/cases and the scenario files: keys and "
               "YAML syntax.\n";
  for (const auto& t : yaml_tokens) yaml_dict << dict_entry(t) << '\n';
  std::printf("wrote %zu + %zu dictionary entries under %s\n", frame_tokens.size(), yaml_tokens.size(), out.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  if (argc == 3 && command == "check-corpus") {
    return write_corpus(argv[2], fs::path(argv[2]) / "corpus", seed_writer::mode::check);
  }
  if (argc != 4 || (command != "corpus" && command != "dicts")) {
    std::fprintf(stderr, "usage: %s corpus|dicts SOURCE_DIR OUT_DIR | check-corpus SOURCE_DIR\n", argv[0]);
    return 2;
  }
  fs::create_directories(argv[3]);
  return command == "corpus" ? write_corpus(argv[2], argv[3], seed_writer::mode::write) : write_dicts(argv[2], argv[3]);
}
