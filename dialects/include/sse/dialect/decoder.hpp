// SPDX-License-Identifier: MIT
// Dialect decoders: one wire event (a frame) in, one typed dialect event out,
// driven entirely by a loaded catalog (sse/dialect/catalog.hpp).
//
//   const auto& cat = *sse::dialect::builtin_catalog().value;
//   sse::dialect::decoder dec(*cat.dialect("agent"));
//   const auto& ev = dec.decode({.data = R"({"type":"message_chunk","content":"Hi"})"});
//   if (ev.type == "message_chunk") append(ev.find("content")->value.as_string());
//
// Nothing a backend sent is ever lost: every frame gives exactly one event,
// and every event keeps the frame's data in `raw`.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sse/dialect/catalog.hpp"
#include "sse/parser.hpp"
#include "ssec/support/result.hpp"

namespace sse::dialect {

/// The data of one wire event and what the wire layer knows about it.
struct frame {
  std::string_view data;                    ///< The event's data (multi-line data joined with LF).
  std::string_view event_type = "message";  ///< The SSE event type.
  std::string_view last_event_id;           ///< The last event ID string at dispatch.
  std::uint64_t offset = 0;                 ///< Stream offset of the event's block.
  /// The caller vouches that `data` is valid UTF-8, so the decoder does not
  /// check it again. False: the decoder checks it (invalid UTF-8 makes the
  /// frame plain text, as a JSON parser refuses it).
  bool data_is_utf8 = false;

  frame() = default;
  frame(std::string_view data_, std::string_view event_type_ = "message", std::string_view last_event_id_ = {},
        std::uint64_t offset_ = 0) noexcept
      : data(data_), event_type(event_type_), last_event_id(last_event_id_), offset(offset_) {}
  /// The frame of a wire event; its data is valid UTF-8 by the wire parser's
  /// contract (sse::event_view::data).
  explicit frame(const sse::event_view& e) noexcept
      : data(e.data), event_type(e.type), last_event_id(e.last_event_id), offset(e.offset), data_is_utf8(true) {}
};

/// What a frame turned out to be.
enum class event_kind : std::uint8_t {
  structured = 0,  ///< A JSON object with a string type the catalog lists.
  unknown = 1,     ///< A JSON object with a string type the catalog does not list.
  plain_text = 2,  ///< Anything else; `text` is the whole data.
  error = 3,       ///< An error frame; `text` is its message.
};

/// "structured", "unknown", "plain_text", "error".
std::string_view to_string(event_kind k) noexcept;

/// One JSON value of a decoded event. NOTE lifetime: valid as long as the
/// event_view it came from (until the decoder's next decode()).
class value_view {
 public:
  value_view() = default;

  json_type type() const noexcept { return type_; }
  /// A number with an integral value (3 or 3.0).
  bool is_integral() const noexcept { return integral_; }
  /// The value of a boolean; false for other types.
  bool as_bool() const noexcept { return boolean_; }
  /// The value of a number (as JavaScript reads it); 0 for other types.
  double as_number() const noexcept { return number_; }
  /// The unescaped value of a string; empty for other types.
  std::string_view as_string() const noexcept { return string_; }
  /// The member with this key of an object (the last one if repeated), if any.
  std::optional<value_view> member(std::string_view key) const;
  /// The members of an object in document order; empty for other types.
  std::vector<std::pair<std::string_view, value_view>> members() const;
  /// The value as an owned JSON value.
  nlohmann::json to_json() const;

 private:
  friend struct value_access;
  enum class origin : std::uint8_t { none, simdjson, json };
  json_type type_ = json_type::null;
  bool boolean_ = false;
  bool integral_ = false;
  origin origin_ = origin::none;
  double number_ = 0;
  std::string_view string_;
  // The parsed node: a simdjson element (stored by value) or a nlohmann::json*.
  alignas(8) std::array<unsigned char, 16> node_{};
};

/// One member of a decoded object, or a default the catalog supplied.
struct field_view {
  std::string_view key;
  value_view value;
  bool defaulted = false;            ///< Missing from the frame; the catalog's default.
  const field_spec* spec = nullptr;  ///< The catalog's field, or nullptr if undeclared.
};

namespace detail {
// What builds the fields of the event it decoded last, on first use: the
// decoder's state (decoder.cpp).
class field_source {
 public:
  virtual std::span<const field_view> build_fields() = 0;

 protected:
  field_source() = default;
  field_source(const field_source&) = default;
  field_source& operator=(const field_source&) = default;
  ~field_source() = default;
};
}  // namespace detail

/// The fields of a decoded event: a contiguous range of field_view, as a
/// std::span<const field_view> is (and convertible to one). The decoder may
/// build them only when first asked (begin, size, ...), so a caller that reads
/// only the kind and type does not pay for them. NOTE: building writes into
/// the decoder, so it is no more thread-safe than the decoder, and it reads
/// the frame's data, which must be alive as long as the view (as `raw` is).
class field_list {
 public:
  using value_type = field_view;
  using const_iterator = const field_view*;
  using iterator = const_iterator;

  field_list() = default;
  field_list(std::span<const field_view> built) noexcept : built_(built) {}  // NOLINT(google-explicit-constructor)
  explicit field_list(detail::field_source& pending) noexcept : pending_(&pending) {}

  std::span<const field_view> span() const {
    if (pending_ != nullptr) {
      built_ = pending_->build_fields();
      pending_ = nullptr;
    }
    return built_;
  }
  operator std::span<const field_view>() const { return span(); }  // NOLINT(google-explicit-constructor)
  const field_view* begin() const { return span().data(); }
  const field_view* end() const {
    const auto s = span();
    return s.data() + s.size();
  }
  const field_view* data() const { return span().data(); }
  std::size_t size() const { return span().size(); }
  bool empty() const { return span().empty(); }
  const field_view& operator[](std::size_t i) const { return span()[i]; }
  const field_view& front() const { return span().front(); }
  const field_view& back() const { return span().back(); }

 private:
  mutable std::span<const field_view> built_;
  mutable detail::field_source* pending_ = nullptr;  // builds built_ on first use
};

/// One decoded frame. NOTE lifetime: every view, and the event itself, is valid
/// until the decoder's next decode() or its destruction; to_event() copies.
struct event_view {
  event_kind kind = event_kind::plain_text;
  std::string_view type;             ///< structured and unknown: the type.
  std::string_view text;             ///< plain_text: the whole data; error: the message.
  std::string_view raw;              ///< Always: the frame's data exactly.
  field_list fields;                 ///< structured, unknown: the members (`type` included; repeated keys once, last
                                     ///< value) then the defaults; built when first asked.
  const event_spec* spec = nullptr;  ///< structured: the catalog's entry.
  bool json_object = false;     ///< The data is a JSON object (also for plain text: an object without a string type).
  bool duplicate_keys = false;  ///< The object names a key more than once.
  std::string_view wire_type;   ///< The SSE event type of the frame.
  std::uint64_t offset = 0;     ///< Stream offset of the frame's block.

  /// The field with this key (present or defaulted), or nullptr.
  const field_view* find(std::string_view key) const noexcept;
};

/// A decoded frame that owns its data; its JSON form is spec/FORMAT.md section 2.
struct event {
  event_kind kind = event_kind::plain_text;
  std::string type;
  nlohmann::json fields;  ///< structured, unknown: the object with defaults applied; null otherwise.
  std::string text;
  std::string raw;
  std::vector<std::string> defaulted;  ///< Keys the catalog's defaults supplied.

  /// Equal JSON forms (fields compare as JSON values).
  friend bool operator==(const event& a, const event& b);
};

/// Copies a view into an owning event.
event to_event(const event_view& v);

/// The JSON form (spec/FORMAT.md section 2): kind, type, fields, text, raw.
nlohmann::ordered_json to_json(const event& e);

/// Reads the JSON form back (what an adapter answered), or the error saying
/// why the object is not a dialect event.
ssec::result<event> event_from_json(const nlohmann::json& j);

/// Decodes frames of one dialect. Reuses its buffers: after warm-up a frame
/// costs no allocation. Not thread-safe: one decoder per stream or thread.
class decoder {
 public:
  /// `dialect` must outlive the decoder (keep the catalog's shared_ptr).
  explicit decoder(const dialect_spec& dialect);
  ~decoder();
  decoder(decoder&&) noexcept;
  decoder& operator=(decoder&&) noexcept;

  /// Decodes one frame. Never fails: what is not a structured event or an
  /// error frame is plain text. The result (and its views) lives until the
  /// next call; its fields are built from f.data when first asked, so f.data
  /// must stay alive while the result is used. NOTE lifetime: keeps no
  /// pointer into f.data after the next call.
  const event_view& decode(const frame& f);

  /// decode() then to_event().
  event decode_event(const frame& f) { return to_event(decode(f)); }

  const dialect_spec& dialect() const noexcept;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// A wire visitor (sse::visitor) that decodes each wire event and hands the
/// dialect event to `on_dialect_event(const event_view&, const sse::event_view&)`,
/// which returns sse::action. Use it with sse::parser for streaming decode.
template <class Callback>
class stream_decoder {
 public:
  stream_decoder(const dialect_spec& d, Callback cb) : decoder_(d), callback_(std::move(cb)) {}
  action on_event(const sse::event_view& e) {
    const event_view& ev = decoder_.decode(frame{e});
    return callback_(ev, e);
  }
  dialect::decoder& inner() noexcept { return decoder_; }

 private:
  dialect::decoder decoder_;
  Callback callback_;
};

/// Decodes a whole stream held in memory. Wire-level status (a limit hit) is
/// in `status`; events before it are kept.
struct decoded_stream {
  std::vector<event> events;
  errc status = errc::ok;
  std::uint64_t error_offset = 0;
};
decoded_stream decode_stream(const dialect_spec& d, std::string_view bytes, limits lim = {});

/// The same for a stream given as chunks, in order (the adapter's input).
decoded_stream decode_stream(const dialect_spec& d, std::span<const std::string_view> chunks, limits lim = {});

}  // namespace sse::dialect
