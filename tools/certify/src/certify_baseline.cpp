// SPDX-License-Identifier: MIT
// Recorded baselines (`certify --baseline DIALECT=FILE`, certify.hpp,
// tools/docs/certify.md "Recorded baselines"): a stream file or a capture,
// read by the one capture reader, bounded before it is read, decoded by the
// reference parser and validated against NEW's MUST rules.
#include <filesystem>
#include <system_error>

#include "sse/dialect/validator.hpp"
#include "sse/parser.hpp"
#include "ssec/certify/certify.hpp"
#include "ssec/live/capture.hpp"
#include "ssec/live/check.hpp"
#include "ssec/support/escape.hpp"

namespace ssec::certify {
namespace conf = ssec::conformance;

namespace {

struct collector {
  std::vector<conf::probe_frame> frames;
  std::optional<std::pair<std::uint64_t, std::string>> problem;  // the first diagnostic that means "does not decode"

  sse::action on_event(const sse::event_view& e) {
    frames.push_back(conf::recorded_frame(e.type, e.data));
    return sse::action::proceed;
  }
  void on_diagnostic(const sse::diagnostic& d) {
    if (problem) return;
    if (d.code == sse::diag::invalid_utf8) problem = {{d.offset, "bytes that are not UTF-8"}};
    if (d.code == sse::diag::discarded_at_eof)
      problem = {{d.offset, "an unterminated frame at the end (no blank line)"}};
  }
};

}  // namespace

result<recorded_baseline> load_baseline(const std::string& file, const std::string& dialect,
                                        const sse::dialect::catalog& next, std::string name) {
  const std::string where = "baseline " + file;
  const sse::dialect::dialect_spec* d = next.dialect(dialect);
  if (d == nullptr) return error{where + ": the new contract has no dialect `" + dialect + "`"};
  std::error_code ec;
  const auto size = std::filesystem::file_size(file, ec);
  if (ec) return error{where + ": cannot read it: " + ec.message()};
  if (size > max_baseline_bytes) {
    return error{where + ": " + std::to_string(size) + " bytes, over the limit of " +
                 std::to_string(max_baseline_bytes) + " bytes for a recorded baseline"};
  }
  auto cap = live::load_capture_or_stream(file);
  if (!cap) return error{where + ": " + cap.error().to_string()};
  const std::string bytes = cap.value().bytes();
  if (bytes.size() > max_baseline_bytes) {
    return error{where + ": its stream holds " + std::to_string(bytes.size()) + " bytes, over the limit of " +
                 std::to_string(max_baseline_bytes)};
  }
  collector v;
  sse::parser<collector> p(v);
  auto status = p.feed(bytes).status;
  if (!sse::is_fatal(status)) status = p.finish();
  if (sse::is_fatal(status)) {
    return error{where + ": does not decode: the reference parser stopped at byte offset " +
                 std::to_string(p.error_offset()) + " (" + std::string(sse::to_string(status)) + ")"};
  }
  if (v.problem) {
    return error{where + ": does not decode: " + v.problem->second + " at byte offset " +
                 std::to_string(v.problem->first)};
  }
  if (v.frames.empty()) return error{where + ": holds no event"};
  if (v.frames.size() > max_baseline_frames) {
    return error{where + ": " + std::to_string(v.frames.size()) + " frames, over the limit of " +
                 std::to_string(max_baseline_frames)};
  }
  live::check_options co;
  co.dialect = d;
  co.chunking_seeds = 0;
  const live::check_report checked = live::analyze(cap.value(), co);
  for (const auto& f : checked.findings) {
    if (f.severity != "must") continue;
    std::string at = "byte offset " + std::to_string(f.offset);
    if (f.frame) at = sse::dialect::frame_text(*f.frame, f.at_end) + " (" + at + ")";
    return error{where + ": " + at + " breaks the new contract's MUST rule " + f.rule + ": " +
                 (f.message.empty() ? f.seen : f.message)};
  }
  recorded_baseline out;
  out.name = std::move(name);
  out.dialect = dialect;
  out.file = file;
  out.frames = std::move(v.frames);
  return out;
}

}  // namespace ssec::certify
