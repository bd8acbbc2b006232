// SPDX-License-Identifier: MIT
#include "ssec/http/client.hpp"

// Only the types and constants: the functions come from libcurl_api().
#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>
#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>
#include <type_traits>

namespace ssec::http {
namespace {

using clock = std::chrono::steady_clock;

struct transfer {
  const stream_request* req;
  const on_head* head;  // may be empty
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
  long status = 0;  // of the response whose head is being read
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
  if (!t.in_headers) {
    // The head is complete. An interim (1xx) head, or a redirect curl follows,
    // is not the response whose body comes.
    const bool followed =
        t.req->follow_redirects && t.status >= 300 && t.status < 400 && t.result->headers.count("location") != 0;
    if (t.status >= 200 && !followed && t.head != nullptr && *t.head && !(*t.head)(t.status, t.result->headers)) {
      t.stopped = true;
      return 0;  // curl stops with a write error
    }
  } else if (line.starts_with("HTTP/")) {
    t.result->headers.clear();  // a new response (after 100-continue or a redirect)
    // "HTTP/1.1 200 OK", "HTTP/2 204": the status follows the first space.
    const auto space = line.find(' ');
    t.status = space == std::string_view::npos ? 0 : std::atol(std::string(line.substr(space + 1, 3)).c_str());
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

// libcurl calls it about once a second even while no byte arrives.
int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto& t = *static_cast<transfer*>(user);
  if (t.req->stop != nullptr && t.req->stop->load() != 0) {
    t.stopped = true;
    return 1;
  }
  if (t.req->idle_timeout_s > 0 &&
      std::chrono::duration<double>(clock::now() - t.last_byte).count() > t.req->idle_timeout_s) {
    t.idle = true;
    return 1;
  }
  return 0;
}

// libcurl, opened at the first request or URL check instead of linked:
// linked, it and the 29 libraries it needs cost every command about 13 ms
// of start-up on this machine (a program that does nothing but link it:
// 14.5 ms, against 1.4 ms without, `perf stat -r 30`), and most commands
// never make a request. Git keeps libcurl out of its main program for the
// same reason (git-remote-http).
struct libcurl {
  decltype(&::curl_global_init) global_init = nullptr;
  decltype(&::curl_easy_init) easy_init = nullptr;
  decltype(&::curl_easy_setopt) easy_setopt = nullptr;
  decltype(&::curl_easy_perform) easy_perform = nullptr;
  decltype(&::curl_easy_getinfo) easy_getinfo = nullptr;
  decltype(&::curl_easy_cleanup) easy_cleanup = nullptr;
  decltype(&::curl_easy_strerror) easy_strerror = nullptr;
  decltype(&::curl_slist_append) slist_append = nullptr;
  decltype(&::curl_slist_free_all) slist_free_all = nullptr;
  decltype(&::curl_url) url = nullptr;
  decltype(&::curl_url_set) url_set = nullptr;
  decltype(&::curl_url_get) url_get = nullptr;
  decltype(&::curl_url_strerror) url_strerror = nullptr;
  decltype(&::curl_url_cleanup) url_cleanup = nullptr;
  decltype(&::curl_free) free = nullptr;
  std::string missing;  // why it cannot be used; empty when it can
};

// The library under the first of `names` that opens (kept open), bound and
// initialised; its `missing` says why not, naming the library and the
// package that has it.
libcurl open_libcurl(std::initializer_list<const char*> names) {
  libcurl l;
  void* handle = nullptr;
  for (const char* name : names) {
    handle = ::dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (handle != nullptr) break;
  }
  if (handle == nullptr) {
    const char* why = ::dlerror();
    l.missing = std::string("HTTP needs libcurl (libcurl.so.4, Debian package libcurl4), which cannot be opened: ") +
                (why != nullptr ? why : "not found");
    return l;
  }
  const auto bind = [&](auto& function, const char* name) {
    void* symbol = ::dlsym(handle, name);
    if (symbol == nullptr) {
      if (l.missing.empty()) l.missing = std::string("libcurl lacks ") + name + ": version 7.80 or later is needed";
      return;
    }
    function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(symbol);
  };
  bind(l.global_init, "curl_global_init");
  bind(l.easy_init, "curl_easy_init");
  bind(l.easy_setopt, "curl_easy_setopt");
  bind(l.easy_perform, "curl_easy_perform");
  bind(l.easy_getinfo, "curl_easy_getinfo");
  bind(l.easy_cleanup, "curl_easy_cleanup");
  bind(l.easy_strerror, "curl_easy_strerror");
  bind(l.slist_append, "curl_slist_append");
  bind(l.slist_free_all, "curl_slist_free_all");
  bind(l.url, "curl_url");
  bind(l.url_set, "curl_url_set");
  bind(l.url_get, "curl_url_get");
  bind(l.url_strerror, "curl_url_strerror");
  bind(l.url_cleanup, "curl_url_cleanup");
  bind(l.free, "curl_free");
  if (l.missing.empty() && l.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) l.missing = "libcurl failed to initialise";
  return l;
}

const libcurl& libcurl_api() {
  static const libcurl lib = open_libcurl({"libcurl.so.4", "libcurl-gnutls.so.4"});
  return lib;
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
  const libcurl& curl = libcurl_api();
  if (!curl.missing.empty()) return ssec::error{curl.missing};
  CURLU* u = curl.url();
  if (u == nullptr) return ssec::error{"cannot parse it (out of memory)"};
  std::string why;
  const auto scheme_is = [&](std::string_view prefix) {
    return url.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), url.begin(), [](char a, char b) {
             return a == std::tolower(static_cast<unsigned char>(b));
           });
  };
  if (!scheme_is("http://") && !scheme_is("https://")) {
    why = "only http:// and https:// URLs can be requested";
  } else if (const CURLUcode rc = curl.url_set(u, CURLUPART_URL, url.c_str(), 0); rc != CURLUE_OK) {
    why = curl.url_strerror(rc);
  } else {
    char* scheme = nullptr;
    char* host = nullptr;
    curl.url_get(u, CURLUPART_SCHEME, &scheme, 0);
    curl.url_get(u, CURLUPART_HOST, &host, 0);
    const std::string s = scheme != nullptr ? scheme : "";
    if (s != "http" && s != "https") why = "only http:// and https:// URLs can be requested";
    else if (host == nullptr || *host == '\0') why = "no host";
    curl.free(scheme);
    curl.free(host);
  }
  curl.url_cleanup(u);
  if (!why.empty()) return ssec::error{why};
  return {};
}

std::string detail::libcurl_problem(std::initializer_list<const char*> names) { return open_libcurl(names).missing; }

stream_result stream(const stream_request& req, const on_data& data) { return stream(req, on_head(), data); }

stream_result stream(const stream_request& req, const on_head& head, const on_data& data) {
  stream_result result;
  const libcurl& lib = libcurl_api();
  if (!lib.missing.empty()) {
    result.error = lib.missing;
    return result;
  }
  transfer t{&req, &head, &data, &result, clock::now(), clock::now()};
  CURL* curl = lib.easy_init();
  if (!curl) {
    result.error = "curl_easy_init failed";
    return result;
  }
  curl_slist* headers = nullptr;
  for (const auto& h : req.headers) headers = lib.slist_append(headers, h.c_str());
  char error[CURL_ERROR_SIZE] = {};
  lib.easy_setopt(curl, CURLOPT_URL, req.url.c_str());
  lib.easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  lib.easy_setopt(curl, CURLOPT_CUSTOMREQUEST, req.method.c_str());
  if (!req.body.empty() || req.method == "POST" || req.method == "PUT" || req.method == "PATCH") {
    lib.easy_setopt(curl, CURLOPT_POSTFIELDS, req.body.data());
    lib.easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(req.body.size()));
  }
  lib.easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  lib.easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
  lib.easy_setopt(curl, CURLOPT_HEADERDATA, &t);
  lib.easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
  lib.easy_setopt(curl, CURLOPT_WRITEDATA, &t);
  lib.easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
  lib.easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
  lib.easy_setopt(curl, CURLOPT_XFERINFODATA, &t);
  lib.easy_setopt(curl, CURLOPT_FOLLOWLOCATION, req.follow_redirects ? 1L : 0L);
  lib.easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
  lib.easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  lib.easy_setopt(curl, CURLOPT_TCP_NODELAY, 1L);
  if (req.decode_content) lib.easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
  if (!req.verify_tls) {
    lib.easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 0L);
    lib.easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 0L);
  }
  if (!req.ca_file.empty()) lib.easy_setopt(curl, CURLOPT_CAINFO, req.ca_file.c_str());
  switch (req.version) {
    case http_version::negotiate: lib.easy_setopt(curl, CURLOPT_HTTP_VERSION, long{CURL_HTTP_VERSION_2TLS}); break;
    case http_version::http1_1: lib.easy_setopt(curl, CURLOPT_HTTP_VERSION, long{CURL_HTTP_VERSION_1_1}); break;
    case http_version::http2_prior_knowledge:
      lib.easy_setopt(curl, CURLOPT_HTTP_VERSION, long{CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE});
      break;
  }
  if (req.timeout_s > 0) lib.easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(req.timeout_s * 1000));
  const CURLcode rc = lib.easy_perform(curl);
  lib.easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &result.status);
  if (char* where = nullptr; lib.easy_getinfo(curl, CURLINFO_REDIRECT_URL, &where) == CURLE_OK && where) {
    result.redirect_url = where;
  }
  if (long version = 0; lib.easy_getinfo(curl, CURLINFO_HTTP_VERSION, &version) == CURLE_OK) {
    switch (version) {
      case CURL_HTTP_VERSION_1_0: result.protocol = "HTTP/1.0"; break;
      case CURL_HTTP_VERSION_1_1: result.protocol = "HTTP/1.1"; break;
      case CURL_HTTP_VERSION_2_0: result.protocol = "HTTP/2"; break;
      case CURL_HTTP_VERSION_3: result.protocol = "HTTP/3"; break;
      default: break;  // no response
    }
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
    // Silence is not the only way to spend the idle timeout inside the head:
    // a server may send it a byte at a time. The lines that completed tell.
    if (t.in_headers) {
      result.error = t.header_bytes == 0
                         ? "no line of the response head completed (silence, or a status line sent slowly)"
                         : "the response head was still arriving: " + std::to_string(t.header_bytes) +
                               " bytes of it in complete lines, its next line incomplete (a head sent slowly)";
    }
  } else {
    result.error = error[0] ? error : lib.easy_strerror(rc);
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
      case CURLE_SEND_ERROR:
      case CURLE_HTTP2:  // the HTTP/2 connection failed (GOAWAY, a framing error)
      case CURLE_HTTP2_STREAM: result.end = stream_end::reset; break;  // RST_STREAM: the error names its code
      default: result.end = stream_end::other_error; break;
    }
  }
  lib.slist_free_all(headers);
  lib.easy_cleanup(curl);
  return result;
}

}  // namespace ssec::http
