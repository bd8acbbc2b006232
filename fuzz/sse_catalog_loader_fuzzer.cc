// SPDX-License-Identifier: MIT
// Arbitrary YAML through the catalog loader. Properties: no crash and no
// exception escapes; the result is a catalog or errors, never both, never
// neither; every error names the file and says what is wrong.
#include <cstdint>
#include <string>

#include "fuzz_check.hpp"
#include "sse/dialect/catalog.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  const sse::dialect::catalog_source source{"fuzz.yaml", std::string(reinterpret_cast<const char*>(bytes), size)};
  const auto result = sse::dialect::load_catalogs(std::span<const sse::dialect::catalog_source>(&source, 1));
  SSEC_FUZZ_CHECK((result.value != nullptr) != !result.errors.empty(), "a catalog or errors, exactly one");
  for (const auto& e : result.errors) {
    SSEC_FUZZ_CHECK(!e.message.empty());
    SSEC_FUZZ_CHECK(e.to_string().starts_with("fuzz.yaml"), e.to_string());
  }
  return 0;
}
