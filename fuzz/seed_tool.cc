// SPDX-License-Identifier: MIT
// Regenerates the fuzz seeds and dictionaries from the project's own data:
//   ssec_fuzz_seeds corpus SOURCE_DIR OUT_DIR   seeds for every harness, from
//       the conformance cases, the catalogs and the scenario files, as
//       OUT_DIR/<target>/<sha256>
//   ssec_fuzz_seeds dicts SOURCE_DIR OUT_DIR    catalog.dict and yaml.dict
// Deterministic: the same sources give the same files, so a test can check
// that the committed corpus/ and fuzz/*.dict are up to date.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

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

class seed_writer {
 public:
  explicit seed_writer(fs::path root) : root_(std::move(root)) {}
  void add(const std::string& target, const std::string& bytes) {
    if (bytes.size() > 65536) return;
    const fs::path dir = root_ / target;
    fs::create_directories(dir);
    std::ofstream(dir / ssec::fuzz::sha256_hex(bytes), std::ios::binary) << bytes;
    ++count_;
  }
  std::size_t count() const { return count_; }

 private:
  fs::path root_;
  std::size_t count_ = 0;
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

int write_corpus(const fs::path& source, const fs::path& out) {
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
  seed_writer seeds(out);
  for (const auto& c : loaded.value) {
    if (c.input.size() <= 4096) {
      seeds.add("sse_parse_fuzzer", std::string(1, '\0') + c.input);
      seeds.add("sse_parse_fuzzer", std::string(1, '\1') + c.input);
      // Default limits, three cuts of 1, 5 and 2 bytes repeated.
      seeds.add("sse_chunked_fuzzer", std::string("\x00\x03\x01\x05\x02", 5) + c.input);
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
  for (std::size_t d = 0; d < dialects.size(); ++d) {
    const auto* dialect = sse::dialect::builtin_dialect(dialects[d]);
    for (const bool with_fields : {true, false}) {
      std::string seed{static_cast<char>(d), '\0'};
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
  // Loaders: the real files, which must load.
  for (const auto& entry : fs::recursive_directory_iterator(source / "spec")) {
    if (entry.path().extension() == ".yaml") seeds.add("sse_catalog_loader_fuzzer", read_file(entry.path()));
  }
  for (const auto& entry : fs::recursive_directory_iterator(source / "conformance/cases/ours")) {
    if (entry.path().extension() == ".yaml") seeds.add("sse_case_loader_fuzzer", read_file(entry.path()));
  }
  for (const auto& text : scenario_files(source)) {
    seeds.add("sse_scenario_loader_fuzzer", text);
    seeds.add("sse_scenario_loader_fuzzer", with_fuzz_variable(text));
  }
  std::printf("wrote %zu seeds under %s\n", seeds.count(), out.c_str());
  return 0;
}

// A dictionary entry in libFuzzer's syntax: printable ASCII kept, the rest
// \xNN. Not the case log escaper (ssec/escape.hpp): libFuzzer reads only this
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
  std::set<std::string> yaml_tokens{": ", "- ", "[",  "]",  "{",     "}",   "\"",   "'",
                                    "|",  ">",  "&a", "*a", "!!str", "---", "\n  ", std::string(fuzz_variable)};
  const auto add_keys = [&](const std::string& text) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
      if (const auto key = yaml_key_of(line); !key.empty()) yaml_tokens.insert(std::string(key) + ":");
    }
  };
  for (const fs::path& dir : {source / "spec", source / "conformance/cases/ours"}) {
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
  if (argc != 4 || (std::string(argv[1]) != "corpus" && std::string(argv[1]) != "dicts")) {
    std::fprintf(stderr, "usage: %s corpus|dicts SOURCE_DIR OUT_DIR\n", argv[0]);
    return 2;
  }
  fs::create_directories(argv[3]);
  return std::string(argv[1]) == "corpus" ? write_corpus(argv[2], argv[3]) : write_dicts(argv[2], argv[3]);
}
