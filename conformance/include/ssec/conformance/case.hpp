// SPDX-License-Identifier: MIT
// One conformance case, as the loader builds it from a case file. The file
// format is documented in conformance/README.md.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sse/parser.hpp"
#include "ssec/conformance/client_script.hpp"
#include "ssec/conformance/log.hpp"

namespace ssec::conformance {

/// The layer a case speaks to. The wire layer is the WHATWG event stream; the
/// dialects of the protocol documents sit on top of it; `client` is what an
/// EventSource-style client does on the network (client_script.hpp), in case
/// files of its own folder (conformance/clients/).
enum class layer { wire, chat, code, agent, workflow, client };

/// How binding the expectation is, graded by the harness: a broken `must` is
/// a failure, a missed `should` is non-strict, `impl` (behaviour the standard
/// leaves open, or a limit of our choosing) is informational.
enum class verdict { must, should, impl };

/// "wire", "chat", ...; "must", "should", "impl".
std::string_view to_string(layer l) noexcept;
std::string_view to_string(verdict v) noexcept;
/// The inverse of to_string; nullopt for any other text.
std::optional<layer> layer_from_string(std::string_view s) noexcept;
std::optional<verdict> verdict_from_string(std::string_view s) noexcept;
/// The layers of the case tree (conformance/cases/), in the order above:
/// every layer but `client`, whose cases live in conformance/clients/.
const std::vector<layer>& all_layers();

/// Where something was written: the file as shown to people, and a 1-based line.
struct source_location {
  std::string file;
  std::size_t line = 0;
  std::string to_string() const { return file + ":" + std::to_string(line); }
};

struct test_case {
  std::string id;    ///< 4 characters of A-HJ-NP-Z2-9, a letter and a digit; never renamed.
  std::string name;  ///< What it tests, one line.
  std::vector<std::string>
      from;  ///< Where the expectation comes from (WHATWG anchor, spec/DECISIONS.md#..., <document>.txt:<line>).
  std::vector<std::string> tags;  ///< From spec/tags.yaml.
  conformance::verdict verdict = conformance::verdict::must;
  conformance::layer layer = conformance::layer::wire;
  std::string note;  ///< Optional longer explanation.

  std::string input;                        ///< The whole stream, bytes.
  std::vector<std::size_t> written_chunks;  ///< Sizes of the chunks as written (a hint; sums to input.size()).

  event_log events;                      ///< Expected wire log, as written.
  std::vector<std::size_t> event_lines;  ///< 1-based file line of each entry of `events`.

  /// Dialect layers: the expected dialect events, one JSON object per line of
  /// the case's `dialect_events` text, and the producer verdict. Empty / unset
  /// until the dialect catalogs exist.
  std::vector<nlohmann::json> dialect_events;
  bool has_dialect_events = false;
  std::vector<std::string> findings;  ///< Producer rule ids the stream breaks.
  bool conforming = false;            ///< The stream is a conforming producer output.

  std::optional<sse::limits> limits;    ///< Parser limits for the reference (impl cases only).
  std::optional<std::string> no_scan;   ///< Why the every-split-point scan is skipped.
  std::vector<std::string> needs;       ///< Capabilities named explicitly (see required_capabilities).
  std::optional<client_script> client;  ///< `layer: client`: the server's script and the requests expected.

  source_location where;  ///< The line of the case's `- id:` entry.
  std::string topic;      ///< The case file's stem ("line-endings").

  /// "<topic>_<id>" with every character outside [A-Za-z0-9_] as '_': the
  /// GoogleTest instance name and the harness's stable case name.
  std::string test_name() const;
  /// The case's one name in every report, page and result line:
  /// `<layer>/<topic>/<id>`, e.g. "wire/bom/3RFS" (test_name() is the
  /// GoogleTest form, still accepted on input where a name is read).
  std::string path() const;
  /// Limits for the reference: the case's, or the defaults.
  sse::limits reference_limits() const { return limits.value_or(sse::limits{}); }
};

/// `bytes` as items of a case's `input:` list (conformance/README.md, "Input"):
/// each run of UTF-8 a double-quoted string escaped by ssec::escape (which
/// YAML reads back to the same bytes), each byte that is not UTF-8 a
/// `{hex: "FF"}` item. Concatenated, the items are `bytes` again; they are
/// more chunks than one only where a byte is not UTF-8. What a generator or a
/// fuzz crash report writes, so its output pastes into a case file.
std::vector<std::string> input_items(std::string_view bytes);

/// Capability names of adapter protocol version 1 (tools/docs/adapter-protocol.md).
/// An adapter lists those it has. The reference has every one.
const std::vector<std::string>& known_capabilities();

/// The capabilities an implementation may lack because its API cannot
/// *report* the value ("retry": the reconnection time, "last-event-id"): a
/// case needing one it does not list is skipped, and said to be not graded.
/// The others ("bom", "cr", "nul", "utf8-repair") name WHATWG parsing rules:
/// not following one is a failure, whatever the adapter lists, so a case
/// needing one is always graded.
bool excusable_capability(std::string_view capability) noexcept;

/// The adapter capabilities (known_capabilities()) an implementation
/// needs to be held to this case: `needs` plus what the case itself shows:
/// "bom" when the input starts with EF BB BF, "cr" when it holds a CR not
/// followed by LF, "nul" when it holds a 00 byte, "utf8-repair" when it is
/// not valid UTF-8, "retry" when a `retry` line is expected,
/// "last-event-id" when an expected event's last_id is not empty.
/// Sorted, without duplicates.
std::vector<std::string> required_capabilities(const test_case& c);

}  // namespace ssec::conformance
