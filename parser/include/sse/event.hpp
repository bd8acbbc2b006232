// SPDX-License-Identifier: MIT
// An owning copy of a dispatched event, for code that keeps events around.
#pragma once

#include <cstdint>
#include <string>

#include "sse/parser.hpp"

namespace sse {

/// An event that owns its strings (an event_view lives only in its callback).
struct event {
  std::string type = "message";  ///< The event type.
  std::string data;              ///< The data, without the final LF.
  std::string last_event_id;     ///< The last event ID string at dispatch.

  event() = default;
  event(std::string type_, std::string data_, std::string id_ = {})
      : type(std::move(type_)), data(std::move(data_)), last_event_id(std::move(id_)) {}
  explicit event(const event_view& v) : type(v.type), data(v.data), last_event_id(v.last_event_id) {}

  friend bool operator==(const event&, const event&) = default;
};

}  // namespace sse
