// SPDX-License-Identifier: MIT
#include "sse/errc.hpp"

namespace sse {

std::string_view to_string(errc code) noexcept {
  switch (code) {
    case errc::ok: return "ok";
    case errc::paused: return "paused";
    case errc::line_too_long: return "line_too_long";
    case errc::event_too_large: return "event_too_large";
    case errc::aborted: return "aborted";
    case errc::finished: return "finished";
    case errc::value_has_line_break: return "value_has_line_break";
    case errc::id_has_nul: return "id_has_nul";
    case errc::invalid_utf8: return "invalid_utf8";
  }
  return "unknown";
}

std::string_view to_string(diag code) noexcept {
  switch (code) {
    case diag::unknown_field: return "unknown_field";
    case diag::invalid_retry: return "invalid_retry";
    case diag::retry_out_of_range: return "retry_out_of_range";
    case diag::id_has_nul: return "id_has_nul";
    case diag::invalid_utf8: return "invalid_utf8";
    case diag::discarded_at_eof: return "discarded_at_eof";
  }
  return "unknown";
}

}  // namespace sse
