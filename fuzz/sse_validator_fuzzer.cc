// SPDX-License-Identifier: MIT
// Arbitrary event sequences through the producer rules. The fuzzer's bytes
// build frames from the catalog's own event types and fields (so the rules
// about pairing, ids and termination are reached), or raw frames, written as
// a wire stream. Properties: no crash; findings are stable (the same stream
// gives the same findings, also fed in one-byte chunks to the wire layer);
// every finding names a rule and points inside the stream.
#include <cstdint>
#include <string>

#include "fuzz_check.hpp"
#include "fuzz_input.hpp"
#include "sse/dialect/validator.hpp"
#include "sse/utf8.hpp"
#include "sse/writer.hpp"

namespace {

std::string findings_json(const sse::dialect::validation_report& r) {
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  for (const auto& f : r.findings) all.push_back(sse::dialect::to_json(f));
  return all.dump();
}

// A JSON value chosen by the fuzzer: mostly the right shapes, sometimes not.
nlohmann::json pick_value(ssec::fuzz::fuzz_input& in, std::string_view run_id) {
  switch (in.byte() % 7) {
    case 0: return std::string(run_id);
    case 1: return "stp" + std::to_string(in.byte() % 3);
    case 2: return in.byte() % 100;
    case 3: return nlohmann::json::object({{"id", "call" + std::to_string(in.byte() % 3)}});
    case 4: return nlohmann::json::array();
    case 5: return nullptr;
    default: return (in.byte() & 1) != 0;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  static const auto names = sse::dialect::builtin_dialect_names();
  ssec::fuzz::fuzz_input in(bytes, size);
  const sse::dialect::dialect_spec* dialect = sse::dialect::builtin_dialect(names[in.byte() % names.size()]);
  SSEC_FUZZ_CHECK(dialect != nullptr);

  sse::writer writer;
  std::string stream;
  const std::string run_id = "run" + std::to_string(in.byte() % 2);
  for (int frames = 0; !in.empty() && frames < 64; ++frames) {
    sse::event e;
    const std::uint8_t how = in.byte();
    if (how % 8 == 0) {
      sse::utf8::append_repaired(e.data, in.bytes(32));  // a raw frame: text, broken JSON, [ERROR] ...
      std::erase(e.data, '\r');
    } else {
      const auto& ev = dialect->events[in.byte() % dialect->events.size()];
      nlohmann::json object{{"type", ev.type}};
      for (const auto& field : ev.fields) {
        if (in.byte() % 4 != 0) object[field.key] = pick_value(in, run_id);
      }
      e.data = object.dump();
    }
    if (how & 0x80) e.type = "error";
    if (writer.write_event(stream, e) != sse::errc::ok) continue;
  }

  const auto first = sse::dialect::validate_stream(*dialect, stream);
  const auto second = sse::dialect::validate_stream(*dialect, stream);
  SSEC_FUZZ_CHECK(findings_json(first) == findings_json(second), "findings must be stable");
  SSEC_FUZZ_CHECK(first.must + first.should == first.findings.size());
  for (const auto& f : first.findings) {
    SSEC_FUZZ_CHECK(f.rule != nullptr);
    SSEC_FUZZ_CHECK(f.offset <= stream.size(), stream);
    SSEC_FUZZ_CHECK(f.frame <= first.frames);
  }
  return 0;
}
