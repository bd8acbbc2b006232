// SPDX-License-Identifier: MIT
// `sse-conform parse`: a stream in, one JSON line per dispatched event out.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <variant>

#include "cli_util.hpp"
#include "commands.hpp"
#include "contract_options.hpp"
#include "sse/chunking.hpp"
#include "sse/dialect/decoder.hpp"
#include "sse/parser.hpp"
#include "ssec/adapter/wire_json.hpp"
#include "ssec/support/input.hpp"

namespace ssec::cli {
namespace {

struct parse_options {
  std::string layer = "wire";
  std::size_t chunk = 0;
  std::optional<std::uint64_t> split_seed;
  bool diagnostics = false;
  sse::limits limits;
  std::string path = "-";
  conformance::contract_source contract;  // the catalogs of the dialect layers
};

// Prints events as they are dispatched, and diagnostics when asked.
class printing_visitor {
 public:
  printing_visitor(const std::string& source, bool diagnostics, sse::dialect::decoder* dialect = nullptr)
      : source_(source), diagnostics_(diagnostics), dialect_(dialect) {}
  sse::action on_event(const sse::event_view& e) {
    // A dialect layer prints the dialect event (spec/FORMAT.md section 2).
    const std::string line =
        dialect_ != nullptr
            ? dump_line(sse::dialect::to_json(dialect_->decode_event({e.data, e.type, e.last_event_id, e.offset})))
            : dump_line(to_json(e));
    std::fwrite(line.data(), 1, line.size(), stdout);
    std::fputc('\n', stdout);
    return sse::action::proceed;
  }
  void on_diagnostic(const sse::diagnostic& d) {
    if (!diagnostics_) return;
    std::cerr << source_ << ": " << describe_diagnostic(d) << '\n';
  }

 private:
  const std::string& source_;
  bool diagnostics_;
  sse::dialect::decoder* dialect_;
};

int report_status(const std::string& source, sse::errc status, std::uint64_t offset) {
  std::fflush(stdout);
  if (!sse::is_fatal(status)) return exit_ok;
  std::cerr << source << ": byte " << offset << ": " << sse::to_string(status) << '\n';
  return exit_failure;
}

int run_parse(const parse_options& opt) {
  const auto layer = resolve_layer_or_say_why(opt.layer, opt.contract, "parse");
  if (!layer) return exit_usage;
  std::optional<sse::dialect::decoder> dialect;
  if (layer->dialect != nullptr) dialect.emplace(*layer->dialect);
  const std::string source = opt.path == "-" ? "<stdin>" : opt.path;
  printing_visitor out(source, opt.diagnostics, dialect ? &*dialect : nullptr);
  sse::parser<printing_visitor> parser(out, opt.limits);

  // The input is read as a stream, piece by piece, and cut into the chunks
  // asked for as it comes: memory holds one piece and one chunk, whatever
  // the size of the file. Without a chunking option each piece is fed as
  // read, so `curl -N ... | sse-conform parse` prints each event soon.
  sse::chunking::recutter cut = opt.split_seed ? sse::chunking::recutter(sse::chunking::random_cuts(*opt.split_seed))
                                               : sse::chunking::recutter(opt.chunk);
  sse::errc status = sse::errc::ok;
  int write_failed = 0;  // errno of a failed write to standard output
  const auto feed = [&](std::string_view chunk) {
    status = parser.feed(chunk).status;
    return !sse::is_fatal(status);
  };
  const auto read = read_pieces(opt.path, std::size_t{1} << 16, [&](std::string_view piece) {
    const bool go_on = cut.push(piece, feed);
    // A closed or full standard output ends the parse; main() says why.
    if (std::fflush(stdout) != 0) {
      write_failed = errno;
      return false;
    }
    return go_on;
  });
  if (!read) {
    std::cerr << "sse-conform parse: " << read.error().to_string() << '\n';
    return exit_usage;
  }
  if (write_failed != 0) {
    // Said here, with its reason; standard output is then retired so that
    // main() does not say it a second time without one.
    std::cerr << "sse-conform: cannot write to standard output: " << std::strerror(write_failed)
              << "; the output is incomplete\n";
    std::clearerr(stdout);
    (void)std::freopen("/dev/null", "w", stdout);
    return exit_usage;
  }
  if (!sse::is_fatal(status)) cut.finish(feed);
  if (sse::is_fatal(status)) return report_status(source, status, parser.error_offset());
  return report_status(source, parser.finish(), parser.error_offset());
}

}  // namespace

void add_parse_command(CLI::App& app, int& code) {
  auto opt = std::make_shared<parse_options>();
  CLI::App* cmd =
      app.add_subcommand("parse", "Parse a stream and print one JSON object per dispatched event (JSON Lines)");
  cmd->add_option("--layer", opt->layer, "Layer to decode: wire, chat, code, workflow or agent")->capture_default_str();
  auto* chunk = cmd->add_option("--chunk", opt->chunk, "Feed the parser N-byte chunks (0: as read, 64 KiB pieces)")
                    ->check(at_least<std::size_t>(0));
  cmd->add_option("--split-seed", opt->split_seed, "Feed seeded random chunks (the suite's random chunking)")
      ->check(at_least<std::uint64_t>(0))
      ->excludes(chunk);
  cmd->add_flag("--diagnostics", opt->diagnostics,
                "Print tolerated oddities (unknown fields, bad retry, ...) to stderr");
  cmd->add_option("--max-line", opt->limits.max_line, "Longest line in bytes")
      ->capture_default_str()
      ->check(at_least<std::size_t>(1));
  cmd->add_option("--max-event-data", opt->limits.max_event_data, "Largest event data in bytes")
      ->capture_default_str()
      ->check(at_least<std::size_t>(1));
  add_contract_options(cmd, opt->contract);
  cmd->add_option("input", opt->path, "Stream file, or - for standard input")->capture_default_str();
  cmd->callback([opt, &code] { code = run_parse(*opt); });
}

}  // namespace ssec::cli
