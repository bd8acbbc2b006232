// SPDX-License-Identifier: MIT
// The case generator's parts (private to the library; generator.hpp is the
// interface):
//   generator_frames.cpp  frames and streams: JSON objects built from the
//                         catalog, the context frames a stream needs around
//                         them;
//   generator_model.cpp   the generator's own model of what the reference must
//                         answer for a stream: its chunks, wire log, dialect
//                         events (spec/FORMAT.md section 2) and findings (the
//                         check kinds of spec/FORMAT.md section 1);
//   generator.cpp         the cases and their YAML.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sse/dialect/catalog.hpp"

namespace ssec::conformance::gen {

namespace dl = sse::dialect;
using ojson = nlohmann::ordered_json;
using json = nlohmann::json;
using ts = dl::type_set;

// --- Frames and streams (generator_frames.cpp) -----------------------------

bool admits(const dl::type_set& t, const ojson& v);

// A value of the field's type: strings name their key, so a reader sees
// which field a value belongs to; equal keys get equal values across frames,
// which is what the id-linking rules (refers, pair, constant_field) expect.
ojson sample_value(const dl::field_spec& f, bool full);

// A value the field does not admit; nullopt for `any`.
std::optional<ojson> wrong_value(const dl::field_spec& f);

ojson make_object(const dl::event_spec& e, bool full);

// The key spelled with other letter cases: equal to the key when case and
// `_`/`-` are ignored (the key_casing and type_key_casing checks), never
// equal to it.
std::string miscased(const std::string& key);

struct frame {
  std::string data;        // the data's bytes on the wire (a 0xFF byte marks invalid UTF-8)
  std::string event_line;  // the value of an `event:` line before the data, or empty
  bool no_space = false;   // `data:` without the space
  // The field name of its data line. Another name (`Data`) is a field no
  // reader knows: the line is ignored and the frame lost (known_field); such
  // a frame is written as that one line whatever the stream's variant.
  std::string field = "data";
  bool duplicate_keys = false;
  std::string type;  // the object's type (context logic), or empty
  ojson object;      // the object the data was made from (context logic), or null
};

frame from_object(const ojson& o);

frame from_text(std::string text);

enum class variant { lf, crlf, cr, multiline, extras, bom };

constexpr variant all_variants[] = {variant::lf,        variant::crlf,   variant::cr,
                                    variant::multiline, variant::extras, variant::bom};

std::string_view variant_name(variant v);

std::vector<std::string> variant_tags(variant v);

struct stream {
  std::vector<frame> frames;
  variant how = variant::lf;
  std::string tail;  // data of a last `data:` line with no blank line after it, or empty
};

const dl::event_spec* event_of(const dl::dialect_spec& d, std::string_view type);

bool contains(const std::vector<std::string>& v, std::string_view s);

frame minimal_frame(const dl::dialect_spec& d, std::string_view type);

// A copy of `f` with `key` set to `value` (or removed when value is nullopt).
frame with_key(const frame& f, const std::string& key, const std::optional<ojson>& value);

std::optional<ojson> key_value(const frame& f, const std::string& key);

struct context_options {
  bool first = true;       // a first frame the first_frame rules want
  bool refers = true;      // the earlier frames the refers rules want
  bool pair_open = true;   // the open frame a pair rule wants before a close or during frame
  bool pair_close = true;  // the close frames the pair_closed rules want for what is open
  bool last = true;        // the last frame the last_frame rules want
};

// The frames a conforming stream needs around `main` (and `after`, frames
// that follow it): what the dialect's cross-frame rules ask for.
std::vector<frame> with_context(const dl::dialect_spec& d, const frame& main, const std::vector<frame>& after,
                                const context_options& opt = {});

// --- What the reference must answer (generator_model.cpp) ------------------

// A stream rendered: the chunks (one per frame), the expected wire log, the
// expected dialect events and findings.
struct rendered {
  std::vector<std::string> chunks;
  std::vector<std::string> log;
  std::vector<json> events;
  std::set<std::string> findings;
};

rendered render(const dl::dialect_spec& d, const stream& s);

}  // namespace ssec::conformance::gen
