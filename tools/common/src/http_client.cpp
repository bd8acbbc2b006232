// SPDX-License-Identifier: MIT
#include "ssec/http_client.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <mutex>

namespace ssec::http {
namespace {

using clock = std::chrono::steady_clock;

struct transfer {
  const stream_request* req;
  const on_data* data;
  stream_result* result;
  clock::time_point start;
  clock::time_point last_byte;
  bool stopped = false;
  bool hit_max = false;
  std::uint64_t header_bytes = 0;
  bool in_headers = true;  // the response head is being read (until its blank line)
  bool headers_too_large = false;
  bool idle = false;
  double seconds() const { return std::chrono::duration<double>(clock::now() - start).count(); }
};

std::size_t on_header(char* buffer, std::size_t size, std::size_t n, void* user) {
  auto& t = *static_cast<transfer*>(user);
  const std::string_view line(buffer, size * n);
  t.header_bytes += line.size();
  if (t.req->max_header_bytes != 0 && t.header_bytes > t.req->max_header_bytes) {
    t.headers_too_large = true;
    return 0;  // curl stops with a write error
  }
  t.in_headers = line != "\r\n" && line != "\n";
  if (line.starts_with("HTTP/")) {
    t.result->headers.clear();  // a new response (after 100-continue or a redirect)
  } else if (const auto colon = line.find(':'); colon != std::string_view::npos) {
    std::string name(line.substr(0, colon));
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' '))
      value.remove_suffix(1);
    t.result->headers[name] = std::string(value);
  }
  return size * n;
}

std::size_t on_body(char* buffer, std::size_t size, std::size_t n, void* user) {
  auto& t = *static_cast<transfer*>(user);
  std::string_view bytes(buffer, size * n);
  const double at = t.seconds();
  t.last_byte = clock::now();
  if (t.result->seconds_to_first_byte < 0 && !bytes.empty()) t.result->seconds_to_first_byte = at;
  const std::uint64_t max = t.req->max_bytes;
  if (max != 0 && t.result->body_bytes + bytes.size() >= max) {
    bytes = bytes.substr(0, static_cast<std::size_t>(max - t.result->body_bytes));
    t.hit_max = true;
  }
  t.result->body_bytes += bytes.size();
  if (!bytes.empty() && !(*t.data)(bytes, at)) t.stopped = true;
  return (t.stopped || t.hit_max) ? 0 : size * n;  // 0 makes curl stop with a write error
}

int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto& t = *static_cast<transfer*>(user);
  if (t.req->idle_timeout_s > 0 &&
      std::chrono::duration<double>(clock::now() - t.last_byte).count() > t.req->idle_timeout_s) {
    t.idle = true;
    return 1;
  }
  return 0;
}

void global_init() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

}  // namespace

std::string_view to_string(stream_end e) noexcept {
  switch (e) {
    case stream_end::complete: return "complete";
    case stream_end::stopped: return "stopped";
    case stream_end::max_bytes: return "max_bytes";
    case stream_end::timeout: return "timeout";
    case stream_end::idle_timeout: return "idle_timeout";
    case stream_end::reset: return "reset";
    case stream_end::connect_error: return "connect_error";
    case stream_end::tls_error: return "tls_error";
    case stream_end::other_error: return "other_error";
    case stream_end::headers_too_large: return "headers_too_large";
  }
  return "unknown";
}

ssec::result<void> check_url(const std::string& url) {
  global_init();
  CURLU* u = curl_url();
  if (u == nullptr) return ssec::error{"cannot parse it (out of memory)"};
  std::string why;
  const auto scheme_is = [&](std::string_view prefix) {
    return url.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), url.begin(), [](char a, char b) {
             return a == std::tolower(static_cast<unsigned char>(b));
           });
  };
  if (!scheme_is("http://") && !scheme_is("https://")) {
    why = "only http:// and https:// URLs can be requested";
  } else if (const CURLUcode rc = curl_url_set(u, CURLUPART_URL, url.c_str(), 0); rc != CURLUE_OK) {
    why = curl_url_strerror(rc);
  } else {
    char* scheme = nullptr;
    char* host = nullptr;
    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0);
    curl_url_get(u, CURLUPART_HOST, &host, 0);
    const std::string s = scheme != nullptr ? scheme : "";
    if (s != "http" && s != "https") why = "only http:// and https:// URLs can be requested";
    else if (host == nullptr || *host == '\0') why = "no host";
    curl_free(scheme);
    curl_free(host);
  }
  curl_url_cleanup(u);
  if (!why.empty()) return ssec::error{why};
  return {};
}

stream_result stream(const stream_request& req, const on_data& data) {
  global_init();
  stream_result result;
  transfer t{&req, &data, &result, clock::now(), clock::now()};
  CURL* curl = curl_easy_init();
  if (!curl) {
    result.error = "curl_easy_init failed";
    return result;
  }
  curl_slist* headers = nullptr;
  for (const auto& h : req.headers) headers = curl_slist_append(headers, h.c_str());
  char error[CURL_ERROR_SIZE] = {};
  curl_easy_setopt(curl, CURLOPT_URL, req.url.c_str());
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, req.method.c_str());
  if (!req.body.empty() || req.method == "POST" || req.method == "PUT" || req.method == "PATCH") {
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, req.body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(req.body.size()));
  }
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &t);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
  curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &t);
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, req.follow_redirects ? 1L : 0L);
  curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_TCP_NODELAY, 1L);
  if (req.decode_content) curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
  if (!req.verify_tls) {
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 0L);
  }
  if (req.timeout_s > 0) curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(req.timeout_s * 1000));
  const CURLcode rc = curl_easy_perform(curl);
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &result.status);
  if (char* where = nullptr; curl_easy_getinfo(curl, CURLINFO_REDIRECT_URL, &where) == CURLE_OK && where) {
    result.redirect_url = where;
  }
  result.seconds_total = t.seconds();
  if (rc == CURLE_OK) {
    result.end = stream_end::complete;
  } else if (t.headers_too_large || (rc == CURLE_OUT_OF_MEMORY && t.in_headers && result.body_bytes == 0)) {
    // libcurl refuses a header line over its limit as "out of memory": say what happened.
    result.end = stream_end::headers_too_large;
    result.error = t.headers_too_large
                       ? "the response headers are longer than " + std::to_string(req.max_header_bytes) + " bytes"
                       : "a response header line is longer than libcurl accepts (100 KiB)";
  } else if (t.hit_max) {
    result.end = stream_end::max_bytes;
  } else if (t.stopped) {
    result.end = stream_end::stopped;
  } else if (t.idle) {
    result.end = stream_end::idle_timeout;
  } else {
    result.error = error[0] ? error : curl_easy_strerror(rc);
    switch (rc) {
      case CURLE_OPERATION_TIMEDOUT: result.end = stream_end::timeout; break;
      case CURLE_COULDNT_CONNECT:
      case CURLE_COULDNT_RESOLVE_HOST:
      case CURLE_COULDNT_RESOLVE_PROXY: result.end = stream_end::connect_error; break;
      case CURLE_SSL_CONNECT_ERROR:
      case CURLE_PEER_FAILED_VERIFICATION:
      case CURLE_SSL_CERTPROBLEM:
      case CURLE_SSL_CIPHER:
      case CURLE_SSL_CACERT_BADFILE: result.end = stream_end::tls_error; break;
      case CURLE_RECV_ERROR:
      case CURLE_PARTIAL_FILE:
      case CURLE_GOT_NOTHING:
      case CURLE_SEND_ERROR: result.end = stream_end::reset; break;
      default: result.end = stream_end::other_error; break;
    }
  }
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  return result;
}

}  // namespace ssec::http
