// SPDX-License-Identifier: MIT
// Client cases: the `responses` / `requests` keys of a `layer: client` case
// (load_client_script) and their grading (grade_client).
#include "client_loader.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>

#include "ssec/conformance/grading.hpp"

namespace ssec::conformance {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return s;
}

// A header name as HTTP writes one (a token), lower-cased.
bool is_header_name(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) != 0 || ch == '-' || ch == '_';
  });
}

void load_response(ssec::yaml::reader& r, const ssec::yaml::node& n, std::size_t index, scripted_response& out) {
  const std::string what = "response " + std::to_string(index + 1);
  const auto keys = r.read_mapping(n, what, {"status", "content_type", "location", "body", "end"});
  if (!keys) return;
  out.line = ssec::yaml::reader::line(n);
  if (const auto* e = keys->find("status")) {
    if (const auto v = r.integer(*e, what, 100, 599)) out.status = static_cast<int>(*v);
  }
  if (const auto* e = keys->find("content_type")) {
    if (const auto v = r.text(*e, what, true)) out.content_type = *v;
  }
  if (const auto* e = keys->find("location")) {
    if (const auto v = r.text(*e, what)) out.location = *v;
  }
  if (const auto* e = keys->find("body")) {
    if (const auto v = r.text(*e, what, true); v && r.charge(e->value, v->size(), "`body` of " + what)) out.body = *v;
  }
  if (const auto* e = keys->find("end")) {
    if (const auto v = r.text(*e, what)) {
      if (*v == "close") out.end = response_end::close;
      else if (*v == "reset") out.end = response_end::reset;
      else if (*v == "hold") out.end = response_end::hold;
      else r.error(e->value, "`end` of " + what + " must be close, reset or hold");
    }
  }
  if (out.end == response_end::hold && !out.body.empty() && out.body.back() != '\n' && out.body.back() != '\r') {
    // A held response writes comment lines after the body: they must start a line.
    r.error(n, what + ": a held response's body ends with a line end (comments follow it while it is held)");
  }
  const bool redirect = out.status >= 300 && out.status < 400;
  if (redirect != !out.location.empty()) {
    r.error(n, what + ": a 3xx status and `location` go together (`location: next` redirects to the case's own URL)");
  }
  if (!out.location.empty() && out.location != "next") {
    r.error(keys->find("location")->value, "`location` of " + what + " must be `next` (the case's own URL)");
  }
}

void load_request(ssec::yaml::reader& r, const ssec::yaml::node& n, std::size_t index, expected_request& out) {
  const std::string what = "request " + std::to_string(index + 1);
  const auto keys = r.read_mapping(n, what, {"headers", "without", "after_ms", "within_ms"});
  if (!keys) return;
  out.line = ssec::yaml::reader::line(n);
  if (const auto* e = keys->find("headers")) {
    const auto headers = r.read_mapping(e->value, "`headers` of " + what, {});
    if (headers) {
      for (const auto& h : headers->entries) {
        const auto value = r.text(h, "`headers` of " + what, true);
        if (!is_header_name(h.key)) r.error(h.key_node, "`" + h.key + "` is not a header name");
        else if (value) out.headers.emplace_back(lower(h.key), *value);
      }
    }
  }
  if (const auto* e = keys->find("without")) {
    if (const auto names = r.strings(*e, what)) {
      for (const auto& name : *names) {
        if (!is_header_name(name)) r.error(e->value, "`" + name + "` is not a header name");
        out.without.push_back(lower(name));
      }
    }
  }
  const auto max_ms = static_cast<std::int64_t>(client_max_limit_ms);
  if (const auto* e = keys->find("after_ms")) {
    if (const auto v = r.integer(*e, what, 0, max_ms)) out.after_ms = static_cast<double>(*v);
  }
  if (const auto* e = keys->find("within_ms")) {
    if (const auto v = r.integer(*e, what, 0, max_ms)) out.within_ms = static_cast<double>(*v);
  }
  if ((out.after_ms || out.within_ms) && index == 0) {
    r.error(n, "the first request has no response before it: `after_ms` and `within_ms` belong to reconnections");
  }
  if (out.after_ms && out.within_ms && *out.within_ms < *out.after_ms) {
    r.error(keys->find("within_ms")->value, "`within_ms` of " + what + " is less than its `after_ms`");
  }
}

}  // namespace

bool load_client_script(ssec::yaml::reader& r, const ssec::yaml::mapping& keys, const ssec::yaml::node& at,
                        test_case& c) {
  const std::size_t errors_before = r.count();
  if (!r.require(keys, "a client case", {"responses", "requests"})) return false;
  client_script s;
  const auto& responses = keys.find("responses")->value;
  if (!responses.is_sequence() || responses.size() == 0) {
    r.error(responses, "`responses` must be a non-empty list: the server's answer to each connection, in order");
  } else {
    s.responses.resize(responses.size());
    std::size_t k = 0;
    for (const auto& item : responses.items()) {
      load_response(r, item, k, s.responses[k]);
      ++k;
    }
  }
  const auto& requests = keys.find("requests")->value;
  if (!requests.is_sequence() || requests.size() == 0) {
    r.error(requests, "`requests` must be a non-empty list: every request the client makes, in order");
  } else {
    s.requests.resize(requests.size());
    std::size_t k = 0;
    for (const auto& item : requests.items()) {
      load_request(r, item, k, s.requests[k]);
      ++k;
    }
  }
  const auto max_ms = static_cast<std::int64_t>(client_max_limit_ms);
  if (const auto* e = keys.find("close_after_events")) {
    if (const auto v = r.integer(*e, "", 0, 1000)) s.close_after_events = static_cast<std::size_t>(*v);
  }
  if (const auto* e = keys.find("limit_ms")) {
    if (const auto v = r.integer(*e, "", 100, max_ms)) s.limit_ms = static_cast<double>(*v);
  }
  if (const auto* e = keys.find("settle_ms")) {
    if (const auto v = r.integer(*e, "", 0, max_ms)) s.settle_ms = static_cast<double>(*v);
  }
  if (s.requests.size() > s.responses.size() + 1) {
    r.error(at, "more requests expected than the script answers (" + std::to_string(s.responses.size()) +
                    " responses; the one after them is a 204)");
  }
  if (r.count() != errors_before) return false;
  c.client = std::move(s);
  return true;
}

namespace {

std::string ms(double v) {
  std::ostringstream out;
  out << std::llround(v) << " ms";
  return out.str();
}

// "request 2: Last-Event-ID: 1" lines, as the report shows what was seen.
std::string describe_requests(const client_observation& o) {
  std::string out;
  for (std::size_t i = 0; i < o.requests.size(); ++i) {
    const auto& q = o.requests[i];
    out += "request " + std::to_string(i + 1) + " at " + ms(q.at_ms);
    if (i > 0 && i - 1 < o.response_ended_ms.size() && o.response_ended_ms[i - 1]) {
      out += " (" + ms(q.at_ms - *o.response_ended_ms[i - 1]) + " after response " + std::to_string(i) + " ended)";
    }
    for (const char* h : {"last-event-id", "accept", "cache-control"}) {
      if (const auto it = q.headers.find(h); it != q.headers.end()) out += ", " + std::string(h) + ": " + it->second;
    }
    out += "\n";
  }
  out += "ended: " + (o.ended.empty() ? std::string("(not said)") : o.ended) + "\n";
  return out;
}

std::string describe_expected(const client_script& s) {
  std::string out;
  for (std::size_t i = 0; i < s.requests.size(); ++i) {
    const auto& q = s.requests[i];
    out += "request " + std::to_string(i + 1);
    if (q.after_ms) out += ", at least " + ms(*q.after_ms) + " after response " + std::to_string(i) + " ended";
    if (q.within_ms) out += ", at most " + ms(*q.within_ms) + " after it";
    for (const auto& [name, value] : q.headers) out += ", " + name + ": " + value;
    for (const auto& name : q.without) out += ", no " + name;
    out += "\n";
  }
  out += "then no request";
  if (s.settle_ms > 0) out += " (awaited " + ms(s.settle_ms) + " after the client's answer)";
  return out + "\n";
}

std::optional<std::string> request_difference(const client_script& s, const client_observation& o) {
  if (o.requests.size() != s.requests.size()) {
    std::string why = std::to_string(o.requests.size()) + " request" + (o.requests.size() == 1 ? "" : "s") +
                      " where the case expects " + std::to_string(s.requests.size());
    if (o.requests.size() > s.requests.size()) {
      why += ": request " + std::to_string(s.requests.size() + 1) + " is one the client should not have made";
    } else {
      why += ": the client made no request " + std::to_string(o.requests.size() + 1);
    }
    return why;
  }
  for (std::size_t i = 0; i < s.requests.size(); ++i) {
    const auto& want = s.requests[i];
    const auto& got = o.requests[i];
    const std::string which = "request " + std::to_string(i + 1);
    for (const auto& [name, value] : want.headers) {
      const auto it = got.headers.find(name);
      if (it == got.headers.end()) return which + " has no " + name + " header; expected \"" + value + "\"";
      if (it->second != value) return which + " has " + name + ": \"" + it->second + "\"; expected \"" + value + "\"";
    }
    for (const auto& name : want.without) {
      if (const auto it = got.headers.find(name); it != got.headers.end()) {
        return which + " has " + name + ": \"" + it->second + "\"; expected none";
      }
    }
    if (!want.after_ms && !want.within_ms) continue;
    const auto& ended = i - 1 < o.response_ended_ms.size() ? o.response_ended_ms[i - 1] : std::nullopt;
    if (!ended) return which + " came while response " + std::to_string(i) + " was still open";
    const double delay = got.at_ms - *ended;
    if (want.after_ms && delay < *want.after_ms - client_timing_tolerance_ms) {
      return which + " came " + ms(delay) + " after response " + std::to_string(i) + " ended; expected at least " +
             ms(*want.after_ms) + " (the reconnection time)";
    }
    if (want.within_ms && delay > *want.within_ms) {
      return which + " came " + ms(delay) + " after response " + std::to_string(i) + " ended; expected at most " +
             ms(*want.within_ms);
    }
  }
  return std::nullopt;
}

}  // namespace

grade grade_client(const test_case& c, const client_observation& o, bool strict) {
  grade g;
  if (!c.client) {
    g.outcome = outcome::error;
    return g;
  }
  const auto& s = *c.client;
  if (const auto why = request_difference(s, o)) {
    g.outcome = mismatch_outcome(c.verdict, strict);
    g.mismatch = mismatch{*why, describe_expected(s), describe_requests(o)};
    return g;
  }
  if (const auto diff = compare_external(c.events, o.answer)) {
    const auto expected = external_view(c.events);
    g.outcome = mismatch_outcome(c.verdict, strict);
    g.mismatch = mismatch{describe(*diff, expected), format_log(expected), format_log(external_log(o.answer))};
  }
  return g;
}

}  // namespace ssec::conformance
