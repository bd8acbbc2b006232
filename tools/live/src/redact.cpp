// SPDX-License-Identifier: MIT
// Secrets: $VAR / ${VAR} expansion from the environment, and redaction of
// every expanded value from whatever is shown or written.
#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "ssec/live/check.hpp"
#include "ssec/support/escape.hpp"

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

namespace {

constexpr std::string_view blank = "[redacted]";

void blank_whole(std::string& text, std::string_view form) {
  for (std::size_t at = text.find(form); at != std::string::npos; at = text.find(form, at + blank.size()))
    text.replace(at, form.size(), blank);
}

// An excerpt cut inside a secret ends with a prefix of it right before the
// clip mark that quote_clipped() writes: that prefix is blanked too, however
// short, so no clip length leaves part of a secret in a report. (A shown
// excerpt that merely ends in the secret's first character is blanked as
// well: a lost character, never a leaked one.)
void blank_clipped(std::string& text, std::string_view form) {
  static constexpr std::string_view clip_mark = "\"... (";
  for (std::size_t mark = text.find(clip_mark); mark != std::string::npos; mark = text.find(clip_mark, mark + 1)) {
    for (std::size_t k = std::min(form.size() - 1, mark); k > 0; --k) {
      if (std::string_view(text).substr(mark - k, k) != form.substr(0, k)) continue;
      text.replace(mark - k, k, blank);
      mark = mark - k + blank.size();
      break;
    }
  }
}

}  // namespace

std::string redact(std::string text, const std::vector<std::string>& secrets) {
  for (const auto& s : secrets) {
    if (s.empty()) continue;
    // A secret reaches a report as sent, or escaped inside a quoted excerpt.
    const std::string escaped = ssec::escape(s);
    blank_whole(text, s);
    if (escaped != s) blank_whole(text, escaped);
    blank_clipped(text, s);
    if (escaped != s) blank_clipped(text, escaped);
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
