// SPDX-License-Identifier: MIT
#include "sse/recording.hpp"

namespace sse {

recording record_parse(std::span<const std::string_view> chunks, limits lim) {
  recording out;
  recorder rec(out);
  parser<recorder> p(rec, lim);
  errc status = errc::ok;
  for (const std::string_view chunk : chunks) {
    status = p.feed(chunk).status;
    if (is_fatal(status)) break;
  }
  if (!is_fatal(status)) status = p.finish();
  out.retry = p.retry();
  out.last_event_id = std::string(p.last_event_id());
  out.status = status;
  out.error_offset = is_fatal(status) ? p.error_offset() : 0;
  return out;
}

recording record_parse(std::string_view stream, limits lim) {
  return record_parse(std::span<const std::string_view>(&stream, 1), lim);
}

}  // namespace sse
