// SPDX-License-Identifier: MIT
// Arbitrary frames through the chat, code, workflow and agent decoders.
// Properties: nothing is lost (every decoded event keeps the frame's data
// byte for byte as `raw`; plain text keeps it whole as `text`); decoding is
// deterministic; the JSON form reads back to the same event.
#include <cstdint>
#include <string>

#include "fuzz_check.hpp"
#include "fuzz_input.hpp"
#include "sse/dialect/decoder.hpp"
#include "sse/utf8.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  static const auto names = sse::dialect::builtin_dialect_names();
  SSEC_FUZZ_CHECK(!names.empty(), sse::dialect::builtin_catalog().error_text());
  ssec::fuzz::fuzz_input in(bytes, size);
  const sse::dialect::dialect_spec* dialect = sse::dialect::builtin_dialect(names[in.byte() % names.size()]);
  SSEC_FUZZ_CHECK(dialect != nullptr);
  // Frames come from the wire parser, so their strings are valid UTF-8.
  std::string wire_type;
  sse::utf8::append_repaired(wire_type, in.bytes(12));
  if (wire_type.empty()) wire_type = "message";
  std::string data;
  sse::utf8::append_repaired(data, in.rest());

  sse::dialect::decoder decoder(*dialect);
  const sse::dialect::frame frame{data, wire_type, "", 0};
  const sse::dialect::event first = decoder.decode_event(frame);
  SSEC_FUZZ_CHECK(first.raw == data, "raw must keep the frame's data exactly");
  if (first.kind == sse::dialect::event_kind::plain_text) SSEC_FUZZ_CHECK(first.text == data);
  if (first.kind == sse::dialect::event_kind::structured || first.kind == sse::dialect::event_kind::unknown) {
    SSEC_FUZZ_CHECK(!first.type.empty() || first.kind == sse::dialect::event_kind::unknown);
    SSEC_FUZZ_CHECK(first.fields.is_object());
  }
  // The same frame again, through the same decoder, decodes the same.
  const sse::dialect::event second = decoder.decode_event(frame);
  SSEC_FUZZ_CHECK(first == second, "decoding must not depend on the decoder's history");
  // The JSON form (what adapters exchange) reads back to the same event.
  const auto json_form = sse::dialect::to_json(first);
  const auto back = sse::dialect::event_from_json(nlohmann::json::parse(json_form.dump()));
  SSEC_FUZZ_CHECK(back.ok(), (back.ok() ? std::string() : back.error().message) + "\n" + json_form.dump());
  SSEC_FUZZ_CHECK(*back == first, json_form.dump());
  return 0;
}
