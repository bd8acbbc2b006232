// SPDX-License-Identifier: MIT
// Secrets: $VAR / ${VAR} expansion from the environment, and redaction of
// every expanded value from whatever is shown or written.
#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "ssec/live/check.hpp"

namespace ssec::live {

namespace {

// Shared by both expanders: `braced_only` leaves $NAME alone and reads $${ as
// a literal ${. The error's message is the name of the variable that is not set.
result<std::string> expand(std::string_view text, std::vector<std::string>& secrets, bool braced_only) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    // The text up to the next `$` as one piece: a long header copied by
    // alias into every request is expanded once per copy.
    const std::size_t dollar = std::min(text.find('$', i), text.size());
    out.append(text.substr(i, dollar - i));
    i = dollar;
    if (i == text.size()) break;
    if (i + 1 == text.size()) {
      out += text[i++];
      continue;
    }
    if (braced_only && text.substr(i).starts_with("$${")) {
      out += "${";
      i += 3;
      continue;
    }
    std::size_t start = i + 1;
    std::size_t stop = start;
    const bool braced = text[start] == '{';
    if (braced) {
      stop = text.find('}', start);
      if (stop == std::string_view::npos) {
        out += text[i++];
        continue;
      }
      ++start;
    } else if (braced_only) {
      out += text[i++];
      continue;
    } else {
      while (stop < text.size() && (std::isalnum(static_cast<unsigned char>(text[stop])) || text[stop] == '_')) ++stop;
    }
    const std::string name(text.substr(start, stop - start));
    if (name.empty()) {
      out += text[i++];
      continue;
    }
    const char* value = std::getenv(name.c_str());
    if (value == nullptr) return error{name};
    out += value;
    // Once per value: a file naming one variable a thousand times must not
    // make every report redact it a thousand times.
    if (*value != '\0' && std::find(secrets.begin(), secrets.end(), value) == secrets.end())
      secrets.emplace_back(value);
    i = braced ? stop + 1 : stop;
  }
  return out;
}

}  // namespace

result<std::string> expand_env(std::string_view text, std::vector<std::string>& secrets) {
  auto out = expand(text, secrets, false);
  if (!out) return error{"$" + out.error().message + " is not set in the environment"};
  return out;
}

result<std::string> expand_env_braced(std::string_view text, std::vector<std::string>& secrets) {
  auto out = expand(text, secrets, true);
  if (!out) return error{"${" + out.error().message + "} is not set in the environment"};
  return out;
}

std::string redact(std::string text, const std::vector<std::string>& secrets) {
  for (const auto& s : secrets) {
    if (s.empty()) continue;
    for (std::size_t at = text.find(s); at != std::string::npos; at = text.find(s, at + 10))
      text.replace(at, s.size(), "[redacted]");
  }
  return text;
}

check_report redact(check_report r, const std::vector<std::string>& secrets) {
  if (secrets.empty()) return r;
  for (std::string* s :
       {&r.source, &r.content_type, &r.content_encoding, &r.error, &r.redirect_url, &r.last_event_id}) {
    *s = redact(std::move(*s), secrets);
  }
  for (auto& f : r.findings) {
    for (std::string* s : {&f.message, &f.expected, &f.seen}) *s = redact(std::move(*s), secrets);
  }
  if (r.resume) {
    for (std::string* s : {&r.resume->reason, &r.resume->last_event_id, &r.resume->first_id}) {
      *s = redact(std::move(*s), secrets);
    }
  }
  return r;
}

}  // namespace ssec::live
