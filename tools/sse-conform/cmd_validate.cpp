// SPDX-License-Identifier: MIT
// `sse-conform validate`: a recorded stream against a dialect's producer rules
// (spec/*.yaml). Findings and a summary; exit 1 on any MUST violation.
#include <algorithm>
#include <iostream>
#include <limits>
#include <optional>
#include <variant>

#include "cli_util.hpp"
#include "commands.hpp"
#include "contract_options.hpp"
#include "sse/dialect/validator.hpp"
#include "ssec/adapter/wire_json.hpp"
#include "ssec/live/capture.hpp"
#include "ssec/support/input.hpp"
#include "ssec/support/text.hpp"

namespace ssec::cli {
namespace {

struct validate_options {
  std::string dialect;
  bool json = false;
  bool strict = false;  // decision-based findings fail too
  conformance::contract_source contract;
  std::optional<std::string> content_type;
  sse::limits limits;
  std::uint64_t max_bytes = std::uint64_t{64} << 20;  // as check's: a sample, not a failure
  std::string path = "-";
};

// Findings of rules whose severity rests on a decision: --strict promotes them.
std::size_t decision_findings(const sse::dialect::validation_report& r) { return r.decision; }

// --max-bytes cut the stream: what was read is graded, its end is not.
bool sampled(const sse::dialect::validation_report& r, std::uint64_t max_bytes) {
  return max_bytes > 0 && r.bytes >= max_bytes && r.wire_status == sse::errc::ok;
}

bool conforming(const sse::dialect::validation_report& r, bool strict) {
  return r.conforming() && (!strict || decision_findings(r) == 0);
}

// A limit of the tool (--max-line, --max-event-data) stopped reading before
// the end: what was read is graded, the rest is not the producer's fault.
bool stopped_by_limit(const sse::dialect::validation_report& r) { return r.wire_status != sse::errc::ok; }

void print_text(const std::string& source, const sse::dialect::validation_report& r, bool colour, bool strict,
                std::uint64_t max_bytes) {
  for (const auto& f : r.findings) {
    const bool must = f.rule->level == sse::dialect::severity::must;
    std::cout << source << ": " << sse::dialect::frame_text(f.frame, f.at_end) << ", byte " << f.offset << ": "
              << paint(colour, must ? "31" : "33",
                       f.rule->id + " (" + std::string(sse::dialect::to_string(f.rule->level)) + ")")
              << " " << f.rule->text << "\n    expected: " << f.expected << "\n    seen:     " << f.seen
              << "\n    basis:    " << sse::dialect::basis_text(*f.rule) << '\n';
  }
  if (r.not_shown > 0) {
    std::cout << source << ": " << counted(r.not_shown, "more finding") << " not shown (at most "
              << sse::dialect::default_max_findings_per_rule
              << " of each rule are kept; the counts below include them)\n";
  }
  if (sampled(r, max_bytes)) {
    std::cout << source << ": sampled: reading stopped at --max-bytes " << max_bytes
              << "; the frames before it were checked, the end of the stream was not\n";
  }
  if (stopped_by_limit(r)) {
    std::cout << source << ": reading stopped: " << describe_error(r.wire_status, r.wire_error_offset)
              << " (a limit of this tool: --max-line / --max-event-data); the frames before it were checked, the "
                 "rest and the end of the stream were not\n";
  }
  std::string verdict;
  if (r.must > 0 || (strict && decision_findings(r) > 0)) verdict = paint(colour, "31", "NOT conforming");
  else if (stopped_by_limit(r)) verdict = paint(colour, "33", "not graded to the end (a limit stopped reading)");
  else if (sampled(r, max_bytes)) verdict = paint(colour, "32", "conforming (sampled: the end was not read)");
  else verdict = paint(colour, "32", "conforming");
  std::cout << source << ": " << r.dialect << ": " << counted(r.frames, "frame") << ", "
            << counted(r.must + r.should, "finding") << " (" << r.must << " must, " << r.should << " should"
            << (strict && decision_findings(r) > 0
                    ? ", " + std::to_string(decision_findings(r)) + " decision-based promoted by --strict"
                    : std::string())
            << "): " << verdict << '\n';
}

void print_json(const sse::dialect::validation_report& r, bool strict, std::uint64_t max_bytes) {
  nlohmann::ordered_json findings = nlohmann::ordered_json::array();
  for (const auto& f : r.findings) findings.push_back(to_json(f));
  nlohmann::ordered_json out{{"dialect", r.dialect}, {"frames", r.frames}, {"findings", std::move(findings)}};
  out["summary"] = {{"must", r.must}, {"should", r.should}, {"conforming", conforming(r, strict)}};
  out["summary"]["end_graded"] = r.end_graded;
  out["summary"]["sampled"] = sampled(r, max_bytes);
  out["summary"]["findings_not_shown"] = r.not_shown;
  if (strict) out["summary"]["strict_promoted"] = decision_findings(r);
  if (r.wire_status != sse::errc::ok) out["wire_error"] = describe_error(r.wire_status, r.wire_error_offset);
  std::cout << dump_line(out) << '\n';
}

int run_validate(const validate_options& opt) {
  const auto cat = load_contract_or_say_why(opt.contract, "validate");
  if (!cat) return exit_usage;
  const sse::dialect::dialect_spec* d = cat->dialect(opt.dialect);
  if (d == nullptr) {
    std::cerr << "sse-conform validate: unknown dialect '" << opt.dialect << "' (known: " << dialect_names(*cat)
              << ")\n";
    return exit_usage;
  }
  std::string source = opt.path == "-" ? "<stdin>" : opt.path;
  std::optional<std::string> content_type = opt.content_type;
  // A raw stream is validated as it is read, piece by piece, up to
  // --max-bytes: memory holds the frame in progress, not the file. So is a
  // `check --record` capture, its lines read as they come (the
  // Content-Type it was served with taken from its header), its pieces'
  // bytes fed on.
  std::optional<sse::dialect::stream_validator> streaming;
  std::optional<live::capture_reader> capture;
  std::uint64_t left = opt.max_bytes == 0 ? std::numeric_limits<std::uint64_t>::max() : opt.max_bytes;
  const auto start_validator = [&] {
    if (streaming) return;
    if (!content_type && capture && capture->head() != nullptr) {
      const auto& headers = capture->head()->headers;
      if (const auto type = headers.find("content-type"); type != headers.end()) content_type = type->second;
    }
    streaming.emplace(*d, opt.limits, content_type);
  };
  bool first = true;
  const auto read = read_pieces(opt.path, std::size_t{1} << 16, [&](std::string_view piece) {
    if (first) {
      first = false;
      if (live::looks_like_capture(piece)) {
        capture.emplace(source, opt.max_bytes, [&](live::piece&& p) {
          start_validator();
          return streaming->feed(p.bytes);
        });
      }
    }
    if (capture) return capture->feed(piece);
    start_validator();
    const std::string_view part =
        piece.substr(0, static_cast<std::size_t>(std::min<std::uint64_t>(left, piece.size())));
    left -= part.size();
    return streaming->feed(part) && left > 0;
  });
  if (!read) {
    std::cerr << "sse-conform validate: " << read.error().to_string() << '\n';
    return exit_usage;
  }
  bool read_to_end = left > 0;
  if (capture) {
    const auto cap = capture->finish();
    if (!cap) {
      std::cerr << cap.error().to_string() << '\n';
      return exit_usage;
    }
    source = live::capture_name(source, cap.value().source);
    read_to_end = cap.value().end != "max_bytes";
  }
  start_validator();  // an empty input, or a capture without pieces
  const sse::dialect::validation_report report = streaming->finish(read_to_end);
  if (opt.json) print_json(report, opt.strict, opt.max_bytes);
  else print_text(source, report, colour_for(STDOUT_FILENO), opt.strict, opt.max_bytes);
  // A MUST broken in what was read fails; a limit that stopped reading
  // before the end leaves the stream ungraded, which is no pass (exit 2).
  if (report.must > 0 || (opt.strict && decision_findings(report) > 0)) return exit_failure;
  return stopped_by_limit(report) ? exit_usage : exit_ok;
}

}  // namespace

void add_validate_command(CLI::App& app, int& code) {
  auto opt = std::make_shared<validate_options>();
  CLI::App* cmd = app.add_subcommand(
      "validate", "Check a recorded stream against a dialect's producer rules; exit 1 on any MUST violation");
  cmd->add_option("--dialect", opt->dialect, "Dialect: chat, code, workflow or agent")->required();
  cmd->add_flag("--json", opt->json, "Print the findings as one JSON object (spec/FORMAT.md)");
  cmd->add_flag("--strict", opt->strict,
                "Fail on findings of decision-based rules too (basis: decision); the report says they were promoted");
  add_contract_options(cmd, opt->contract);
  cmd->add_option("--content-type", opt->content_type, "The Content-Type the stream was served with, to check it too");
  cmd->add_option("--max-line", opt->limits.max_line, "Longest line in bytes")
      ->capture_default_str()
      ->check(at_least<std::size_t>(1));
  cmd->add_option("--max-event-data", opt->limits.max_event_data, "Largest event data in bytes")
      ->capture_default_str()
      ->check(at_least<std::size_t>(1));
  cmd->add_option("--max-bytes", opt->max_bytes,
                  "Stop after this many bytes: a sample, its end not graded (not a failure; 0 = none)")
      ->capture_default_str();
  cmd->add_option("input", opt->path, "Stream file, or - for standard input")->capture_default_str();
  cmd->callback([opt, &code] { code = run_validate(*opt); });
}

}  // namespace ssec::cli
