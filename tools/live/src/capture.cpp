// SPDX-License-Identifier: MIT
#include "ssec/live/capture.hpp"

#include <filesystem>

#include <nlohmann/json.hpp>

#include "page_hints.hpp"
#include "ssec/base64.hpp"
#include "ssec/input.hpp"

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

result<capture> read_capture(std::string_view text, std::string_view display) {
  const auto fail = [&](std::size_t line, std::string message) {
    return error{std::move(message), std::string(display), line, 0};
  };
  capture c;
  c.end = "truncated";
  std::size_t line_no = 0;
  bool have_head = false;
  bool have_end = false;
  double last_t = 0;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++line_no;
    if (line.empty()) continue;
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return fail(line_no, "not a JSON object");
    if (!have_head) {
      if (j.value("format", std::string()) != capture_magic) {
        return fail(line_no, "the first line must be the header {\"format\":\"sse-conform-capture\",...}");
      }
      const int version = j.value("version", 0);
      if (version != capture_version) {
        return fail(line_no, "capture version " + std::to_string(version) + " is not supported (this reader knows 1)");
      }
      c.source = j.value("source", std::string());
      c.status = j.value("status", 0L);
      c.timed = j.value("timed", true);
      if (j.contains("headers") && j["headers"].is_object()) {
        for (const auto& [k, v] : j["headers"].items()) {
          if (!v.is_string()) return fail(line_no, "header '" + k + "' is not a string");
          c.headers[k] = v.get<std::string>();
        }
      }
      have_head = true;
      continue;
    }
    if (have_end) return fail(line_no, "a line after the end line");
    if (j.contains("b64")) {
      if (!j["b64"].is_string() || !j.contains("t") || !j["t"].is_number()) {
        return fail(line_no, "a piece needs \"t\" (number) and \"b64\" (string)");
      }
      auto bytes = base64_decode(j["b64"].get<std::string>());
      if (!bytes) return fail(line_no, "\"b64\" is not valid base64");
      const double t = j["t"].get<double>();
      if (t < last_t) return fail(line_no, "piece times must not decrease");
      last_t = t;
      c.pieces.push_back(piece{std::move(*bytes), t});
      if (c.seconds_to_first_byte < 0 && !c.pieces.back().bytes.empty()) c.seconds_to_first_byte = t;
      continue;
    }
    if (j.contains("end")) {
      if (!j["end"].is_string()) return fail(line_no, "\"end\" must be a string");
      c.end = j["end"].get<std::string>();
      c.seconds_total = j.value("t", last_t);
      c.error = j.value("error", std::string());
      c.redirect_url = j.value("redirect", std::string());
      have_end = true;
      continue;
    }
    return fail(line_no, "neither a piece (\"b64\") nor the end line (\"end\")");
  }
  if (!have_head) return fail(1, "empty capture: no header line");
  if (!have_end) c.seconds_total = last_t;
  return c;
}

result<capture> load_capture_or_stream(const std::string& path, std::uint64_t max_bytes) {
  // A raw stream is read up to max_bytes and no further; a capture is read
  // whole (its JSON lines are parsed as a document), then cut.
  std::string bytes;
  // A regular file's size is known: one allocation, in 2 MiB pages where the
  // kernel gives them (page_hints.hpp), rather than doubling as it is read.
  std::error_code size_error;
  const std::uintmax_t file_size = path == "-" ? 0 : std::filesystem::file_size(path, size_error);
  if (!size_error && file_size > 0) {
    const std::uintmax_t wanted = max_bytes > 0 ? std::min<std::uintmax_t>(file_size, max_bytes) : file_size;
    if (wanted <= (std::uintmax_t{1} << 32)) {
      bytes.reserve(static_cast<std::size_t>(wanted));
      detail::prefer_huge_pages(bytes.data(), bytes.capacity());
    }
  }
  bool more = false;
  bool capture_text = false;
  const auto read = read_pieces(path, std::size_t{1} << 16, [&](std::string_view piece) {
    if (bytes.empty()) capture_text = looks_like_capture(piece);
    if (!capture_text && max_bytes > 0 && bytes.size() + piece.size() > max_bytes) {
      bytes.append(piece.substr(0, static_cast<std::size_t>(max_bytes - bytes.size())));
      more = true;
      return false;
    }
    bytes.append(piece);
    return true;
  });
  if (!read) return read.error();
  capture cap;
  if (capture_text) {
    auto parsed = read_capture(bytes, path);
    if (!parsed) return parsed.error();
    cap = std::move(parsed).value();
    cap.source = path + " (capture of " + cap.source + ")";
    std::uint64_t kept = 0;
    for (std::size_t i = 0; i < cap.pieces.size(); ++i) {
      if (max_bytes == 0 || kept + cap.pieces[i].bytes.size() <= max_bytes) {
        kept += cap.pieces[i].bytes.size();
        continue;
      }
      cap.pieces[i].bytes.resize(static_cast<std::size_t>(max_bytes - kept));
      cap.pieces.resize(i + 1);
      cap.end = "max_bytes";
      break;
    }
    return cap;
  }
  cap.source = path;
  cap.timed = false;
  cap.pieces.push_back({std::move(bytes), 0});
  if (more) cap.end = "max_bytes";
  return cap;
}

}  // namespace ssec::live
