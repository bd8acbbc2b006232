// SPDX-License-Identifier: MIT
#include "ssec/live/capture.hpp"

#include <filesystem>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>

#include <nlohmann/json.hpp>

#include "page_hints.hpp"
#include "ssec/report/json_shape.hpp"
#include "ssec/support/base64.hpp"
#include "ssec/support/input.hpp"

namespace ssec::live {

namespace {
constexpr std::string_view capture_magic = "sse-conform-capture";
constexpr int capture_version = 1;
}  // namespace

std::string capture::bytes() const {
  std::string out;
  out.reserve(static_cast<std::size_t>(size()));
  detail::prefer_huge_pages(out.data(), out.capacity());
  for (const auto& p : pieces) out += p.bytes;
  return out;
}

std::uint64_t capture::size() const {
  std::uint64_t n = 0;
  for (const auto& p : pieces) n += p.bytes.size();
  return n;
}

std::string write_capture(const capture& c) {
  nlohmann::ordered_json head{{"format", capture_magic}, {"version", capture_version}, {"source", c.source},
                              {"status", c.status},      {"headers", c.headers},       {"timed", c.timed}};
  if (!c.protocol.empty()) head["protocol"] = c.protocol;
  std::string out = head.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + '\n';
  for (const auto& p : c.pieces) {
    nlohmann::ordered_json line{{"t", p.at_seconds}, {"b64", base64_encode(p.bytes)}};
    out += line.dump() + '\n';
  }
  nlohmann::ordered_json end{{"end", c.end}, {"t", c.seconds_total}, {"first_byte", c.seconds_to_first_byte}};
  if (!c.error.empty()) end["error"] = c.error;
  if (!c.redirect_url.empty()) end["redirect"] = c.redirect_url;
  out += end.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + '\n';
  return out;
}

bool looks_like_capture(std::string_view text) noexcept {
  const auto first = text.substr(0, std::min<std::size_t>(text.find('\n'), 4096));
  return first.starts_with("{") && first.find(capture_magic) != std::string_view::npos;
}

namespace {
// Room for a piece line beyond its base64: the time and the JSON around them.
constexpr std::size_t line_overhead = std::size_t{64} << 10;

// The member `key` of `j` when it has type T, `absent` when it is missing;
// nullopt (an error for the caller to name) when it is there with another type.
template <class T>
std::optional<T> member(const nlohmann::json& j, const char* key, T absent) {
  const auto it = j.find(key);
  if (it == j.end()) return absent;
  if constexpr (std::is_same_v<T, std::string>) {
    if (it->is_string()) return it->get<std::string>();
  } else if constexpr (std::is_same_v<T, bool>) {
    if (it->is_boolean()) return it->get<bool>();
  } else if constexpr (std::is_integral_v<T>) {
    if (it->is_number_integer()) return it->get<T>();
  } else {
    if (it->is_number()) return it->get<T>();
  }
  return std::nullopt;
}
}  // namespace

capture_reader::capture_reader(std::string display, std::uint64_t max_bytes, piece_sink on_piece)
    : display_(std::move(display)),
      max_bytes_(max_bytes),
      // The base64 of max_bytes, and the line around it.
      max_line_(max_bytes == 0 || max_bytes > std::uint64_t{1} << 40
                    ? std::numeric_limits<std::size_t>::max()
                    : static_cast<std::size_t>((max_bytes + 2) / 3 * 4) + line_overhead),
      on_piece_(std::move(on_piece)) {
  c_.end = "truncated";
}

bool capture_reader::feed(std::string_view text) {
  while (!error_ && !stopped_ && !text.empty()) {
    const auto nl = text.find('\n');
    const std::string_view part = text.substr(0, nl);
    if (line_.size() + part.size() > max_line_) {
      error_ = error{"a line longer than any piece within --max-bytes (" + std::to_string(max_bytes_) +
                         " bytes) can be: raise --max-bytes, or give 0 to read it whole",
                     display_, line_no_ + 1, 0};
      break;
    }
    if (nl == std::string_view::npos) {
      line_.append(part);
      break;
    }
    text.remove_prefix(nl + 1);
    if (line_.empty()) {
      take_line(part);
    } else {
      line_.append(part);
      take_line(line_);
      line_.clear();
    }
  }
  return !error_ && !stopped_;
}

bool capture_reader::take_line(std::string_view line) {
  ++line_no_;
  const auto fail = [&](std::string message) {
    error_ = error{std::move(message), display_, line_no_, 0};
    return false;
  };
  if (line.empty()) return true;
  const auto j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return fail("not a JSON object");
  // Sets `into` from member `key` when it is there with `into`'s type (kept
  // when absent); an error naming the member when it has another.
  const auto take = [&](const char* key, auto& into, const char* kind) {
    const auto value = member(j, key, into);
    if (!value) return fail(expected_json(key, kind, j[key]));
    into = *value;
    return true;
  };
  if (!have_head_) {
    if (member(j, "format", std::string()) != std::string(capture_magic)) {
      return fail("the first line must be the header {\"format\":\"sse-conform-capture\",...}");
    }
    const auto version = member(j, "version", 0);
    if (!version) return fail(expected_json("version", "a whole number", j["version"]));
    if (*version != capture_version) {
      return fail("capture version " + std::to_string(*version) + " is not supported (this reader knows 1)");
    }
    if (!take("source", c_.source, "a string") || !take("status", c_.status, "a whole number") ||
        !take("timed", c_.timed, "true or false") || !take("protocol", c_.protocol, "a string")) {
      return false;
    }
    if (j.contains("headers")) {
      if (!j["headers"].is_object()) return fail(expected_json("headers", "an object", j["headers"]));
      for (const auto& [k, v] : j["headers"].items()) {
        if (!v.is_string()) return fail(expected_json("headers." + k, "a string", v));
        c_.headers[k] = v.get<std::string>();
      }
    }
    have_head_ = true;
    return true;
  }
  if (have_end_) return fail("a line after the end line");
  if (j.contains("b64")) {
    if (!j["b64"].is_string() || !j.contains("t") || !j["t"].is_number()) {
      return fail("a piece needs \"t\" (a number) and \"b64\" (a string)");
    }
    auto bytes = base64_decode(j["b64"].get<std::string>());
    if (!bytes) return fail("\"b64\" is not valid base64");
    const double t = j["t"].get<double>();
    if (t < last_t_) return fail("piece times must not decrease");
    last_t_ = t;
    if (c_.seconds_to_first_byte < 0 && !bytes->empty()) c_.seconds_to_first_byte = t;
    if (max_bytes_ > 0 && bytes->size() > max_bytes_ - kept_) {
      bytes->resize(static_cast<std::size_t>(max_bytes_ - kept_));
      c_.end = "max_bytes";
      c_.seconds_total = t;
      stopped_ = true;
    }
    kept_ += bytes->size();
    piece p{std::move(*bytes), t};
    if (!on_piece_) c_.pieces.push_back(std::move(p));
    else if (!on_piece_(std::move(p))) stopped_ = true;
    return true;
  }
  if (j.contains("end")) {
    c_.seconds_total = last_t_;  // when the end line gives no time
    if (!take("end", c_.end, "a string") || !take("t", c_.seconds_total, "a number") ||
        !take("error", c_.error, "a string") || !take("redirect", c_.redirect_url, "a string")) {
      return false;
    }
    have_end_ = true;
    return true;
  }
  return fail("neither a piece (\"b64\") nor the end line (\"end\")");
}

result<capture> capture_reader::finish() {
  // A last line without its line feed is a line all the same.
  if (!error_ && !stopped_ && !line_.empty()) {
    take_line(line_);
    line_.clear();
  }
  if (error_) return *error_;
  if (!have_head_) return error{"empty capture: no header line", display_, 1, 0};
  if (!have_end_ && c_.end != "max_bytes") c_.seconds_total = last_t_;
  return std::move(c_);
}

result<capture> read_capture(std::string_view text, std::string_view display) {
  capture_reader reader{std::string(display)};
  reader.feed(text);
  return reader.finish();
}

std::string capture_name(std::string_view path, std::string_view source) {
  return std::string(path) + " (capture of " + std::string(source) + ")";
}

result<capture> load_capture_or_stream(const std::string& path, std::uint64_t max_bytes) {
  // Neither is read beyond max_bytes of body: a raw stream is cut there, a
  // capture is read line by line and stops at the piece that crosses it.
  std::string bytes;
  std::optional<capture_reader> reader;
  bool more = false;
  bool first = true;
  const auto read = read_pieces(path, std::size_t{1} << 16, [&](std::string_view piece) {
    if (first) {
      first = false;
      if (looks_like_capture(piece)) {
        reader.emplace(path, max_bytes);
      } else {
        // A regular file's size is known: one allocation, in 2 MiB pages
        // where the kernel gives them (page_hints.hpp), rather than
        // doubling as it is read.
        std::error_code size_error;
        const std::uintmax_t file_size = path == "-" ? 0 : std::filesystem::file_size(path, size_error);
        const std::uintmax_t wanted = max_bytes > 0 ? std::min<std::uintmax_t>(file_size, max_bytes) : file_size;
        if (!size_error && wanted > 0 && wanted <= (std::uintmax_t{1} << 32)) {
          bytes.reserve(static_cast<std::size_t>(wanted));
          detail::prefer_huge_pages(bytes.data(), bytes.capacity());
        }
      }
    }
    if (reader) return reader->feed(piece);
    if (max_bytes > 0 && bytes.size() + piece.size() > max_bytes) {
      bytes.append(piece.substr(0, static_cast<std::size_t>(max_bytes - bytes.size())));
      more = true;
      return false;
    }
    bytes.append(piece);
    return true;
  });
  if (!read) return read.error();
  capture cap;
  if (reader) {
    auto parsed = reader->finish();
    if (!parsed) return parsed.error();
    cap = std::move(parsed).value();
    cap.source = capture_name(path, cap.source);
    return cap;
  }
  cap.source = path;
  cap.timed = false;
  cap.pieces.push_back({std::move(bytes), 0});
  if (more) cap.end = "max_bytes";
  return cap;
}

}  // namespace ssec::live
