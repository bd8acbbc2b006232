// SPDX-License-Identifier: MIT
// value_access, value_view's friend: builds views (from a simdjson element, nlohmann_json, scalars set in place) and
// reads their nodes. Part of decoder.cpp's unit only, like flat_object_reader.hpp (which says why).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include <simdjson.h>

#include "sse/dialect/decoder.hpp"

namespace sse::dialect {

namespace {

using element = simdjson::dom::element;
static_assert(sizeof(element) <= 16 && std::is_trivially_copyable_v<element>,
              "value_view stores a simdjson element in 16 bytes");

bool integral(double d) noexcept { return std::isfinite(d) && std::floor(d) == d; }

// The scalar an element holds (its type is already known), or T{}.
template <class T>
T scalar(element e) noexcept {
  T v{};
  if (e.get(v) != simdjson::SUCCESS) return T{};
  return v;
}

nlohmann::json convert(element e) {
  switch (e.type()) {
    case simdjson::dom::element_type::ARRAY: {
      auto out = nlohmann::json::array();
      simdjson::dom::array arr;
      if (e.get(arr) == simdjson::SUCCESS) {
        for (element child : arr) out.push_back(convert(child));
      }
      return out;
    }
    case simdjson::dom::element_type::OBJECT: {
      auto out = nlohmann::json::object();
      simdjson::dom::object obj;
      if (e.get(obj) == simdjson::SUCCESS) {
        // Assignment keeps the last of repeated keys, as JSON.parse does.
        for (const auto member : obj) out[std::string(member.key)] = convert(member.value);
      }
      return out;
    }
    case simdjson::dom::element_type::INT64: return scalar<std::int64_t>(e);
    case simdjson::dom::element_type::UINT64: return scalar<std::uint64_t>(e);
    case simdjson::dom::element_type::DOUBLE: return scalar<double>(e);
    case simdjson::dom::element_type::STRING: return std::string(scalar<std::string_view>(e));
    case simdjson::dom::element_type::BOOL: return scalar<bool>(e);
    case simdjson::dom::element_type::NULL_VALUE: return nullptr;
  }
  return nullptr;
}

}  // namespace

// Builds value_views; a friend of value_view.
struct value_access {
  static value_view of(element e) {
    value_view v;
    v.origin_ = value_view::origin::simdjson;
    std::memcpy(v.node_.data(), &e, sizeof e);
    switch (e.type()) {
      case simdjson::dom::element_type::ARRAY: v.type_ = json_type::array; break;
      case simdjson::dom::element_type::OBJECT: v.type_ = json_type::object; break;
      case simdjson::dom::element_type::INT64: {
        v.type_ = json_type::number;
        v.number_ = static_cast<double>(scalar<std::int64_t>(e));
        v.integral_ = true;
        break;
      }
      case simdjson::dom::element_type::UINT64: {
        v.type_ = json_type::number;
        v.number_ = static_cast<double>(scalar<std::uint64_t>(e));
        v.integral_ = true;
        break;
      }
      case simdjson::dom::element_type::DOUBLE: {
        v.type_ = json_type::number;
        v.number_ = scalar<double>(e);
        v.integral_ = integral(v.number_);
        break;
      }
      case simdjson::dom::element_type::STRING:
        v.type_ = json_type::string;
        v.string_ = scalar<std::string_view>(e);
        break;
      case simdjson::dom::element_type::BOOL:
        v.type_ = json_type::boolean;
        v.boolean_ = scalar<bool>(e);
        break;
      case simdjson::dom::element_type::NULL_VALUE: v.type_ = json_type::null; break;
    }
    return v;
  }

  static value_view of(const nlohmann::json& j) {
    value_view v;
    v.origin_ = value_view::origin::json;
    const nlohmann::json* p = &j;
    // The pointer's own bytes are what the view stores: sizeof of the pointer is meant.
    std::memcpy(v.node_.data(), &p, sizeof p);  // NOLINT(bugprone-sizeof-expression)
    switch (j.type()) {
      case nlohmann::json::value_t::array: v.type_ = json_type::array; break;
      case nlohmann::json::value_t::object: v.type_ = json_type::object; break;
      case nlohmann::json::value_t::number_integer:
      case nlohmann::json::value_t::number_unsigned:
        v.type_ = json_type::number;
        v.number_ = j.get<double>();
        v.integral_ = true;
        break;
      case nlohmann::json::value_t::number_float:
        v.type_ = json_type::number;
        v.number_ = j.get<double>();
        v.integral_ = integral(v.number_);
        break;
      case nlohmann::json::value_t::string:
        v.type_ = json_type::string;
        v.string_ = j.get_ref<const std::string&>();
        break;
      case nlohmann::json::value_t::boolean:
        v.type_ = json_type::boolean;
        v.boolean_ = j.get<bool>();
        break;
      default: v.type_ = json_type::null; break;
    }
    return v;
  }

  // A scalar read without a DOM (the flat-object path below), written into a
  // default view in place: its members are stored one by one where the view
  // lives, never into a temporary copied as a whole (a copy that reads back
  // bytes just stored one at a time stalls the store buffer, and that was a
  // quarter of the decoder's time). It has no node (origin none, as a default
  // value_view): its JSON is made from the view's own members, and an integer
  // is kept exactly in node_ (bytes 0-7: the int64 or uint64, as simdjson
  // would hold it; byte 8: 1 for uint64).
  static void set_string(value_view& v, std::string_view s) {
    v.type_ = json_type::string;
    v.string_ = s;
  }
  static void set_integer(value_view& v, std::uint64_t magnitude, bool negative) {
    v.type_ = json_type::number;
    v.integral_ = true;
    const bool is_unsigned = !negative && magnitude > static_cast<std::uint64_t>(INT64_MAX);
    if (is_unsigned) {
      v.number_ = static_cast<double>(magnitude);
      std::memcpy(v.node_.data(), &magnitude, sizeof magnitude);
      v.node_[8] = 1;
    } else {
      const std::int64_t i = negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
      v.number_ = static_cast<double>(i);
      std::memcpy(v.node_.data(), &i, sizeof i);
    }
  }
  static void set_boolean(value_view& v, bool b) {
    v.type_ = json_type::boolean;
    v.boolean_ = b;
  }
  // The JSON of a view without a node: a scalar above, or a default view (null).
  static nlohmann::json scalar_json(const value_view& v) {
    switch (v.type_) {
      case json_type::string: return std::string(v.string_);
      case json_type::boolean: return v.boolean_;
      case json_type::number: {
        if (v.node_[8] == 1) {
          std::uint64_t u = 0;
          std::memcpy(&u, v.node_.data(), sizeof u);
          return u;
        }
        std::int64_t i = 0;
        std::memcpy(&i, v.node_.data(), sizeof i);
        return i;
      }
      default: return nullptr;
    }
  }

  static element simd(const value_view& v) {
    element e;
    std::memcpy(&e, v.node_.data(), sizeof e);
    return e;
  }
  static const nlohmann::json* json(const value_view& v) {
    const nlohmann::json* p = nullptr;
    std::memcpy(&p, v.node_.data(), sizeof p);  // NOLINT(bugprone-sizeof-expression): the pointer's bytes
    return p;
  }
  static bool from_simdjson(const value_view& v) { return v.origin_ == value_view::origin::simdjson; }
  static bool from_json(const value_view& v) { return v.origin_ == value_view::origin::json; }
};

}  // namespace sse::dialect
