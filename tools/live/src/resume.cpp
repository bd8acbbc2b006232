// SPDX-License-Identifier: MIT
// Last-Event-ID resumption (tools/docs/check.md, "Resumption"): judging a
// reconnection from two captures, and the live reconnection itself.
#include <algorithm>

#include "check_internal.hpp"
#include "sse/dialect/validator.hpp"
#include "ssec/live/check.hpp"
#include "ssec/support/text.hpp"

namespace ssec::live {

using namespace detail;

namespace {

// One dispatched event: the last event ID string at dispatch and where its block starts.
struct identified_event {
  std::string id;
  std::uint64_t offset = 0;
};

std::vector<identified_event> identified_events(std::string_view bytes, const sse::limits& lim) {
  struct visitor {
    std::vector<identified_event> out;
    sse::action on_event(const sse::event_view& e) {
      out.push_back({std::string(e.last_event_id), e.offset});
      return sse::action::proceed;
    }
  } v;
  sse::parser<visitor> p(v, lim);
  if (!sse::is_fatal(p.feed(bytes).status)) p.finish();
  return std::move(v.out);
}

void recount(check_report& r) {
  r.must = r.should = 0;
  for (const auto& f : r.findings) (f.severity == "must" ? r.must : r.should) += 1;
}

std::string in_quotes(std::string_view s) { return "\"" + std::string(s) + "\""; }

}  // namespace

void judge_resumption(const capture& first, const capture& second, const std::string& sent_id, const check_options& opt,
                      check_report& report) {
  resume_report rr;
  rr.last_event_id = sent_id;
  rr.status = second.status;
  rr.end = second.end;
  rr.bytes = second.size();
  rr.seconds_total = second.seconds_total;
  const std::string b1 = first.bytes();
  const std::string b2 = second.bytes();
  rr.join_offset = unterminated_block(b1).value_or(b1.size());
  if (second.status == 204) {
    rr.verdict = "declined";
    rr.reason = "the reconnection was answered 204 No Content: the server asks clients not to reconnect";
    report.resume = std::move(rr);
    return;
  }
  // The second response's own response, transport and wire checks; its
  // producer rules run below, over the joined stream.
  check_options wire_only = opt;
  wire_only.dialect = nullptr;
  const check_report second_report = analyze(second, wire_only);
  for (auto f : second_report.findings) {
    f.stream = 1;
    add(report, std::move(f));
  }
  rr.events = second_report.events;
  if (second.status != 200) {
    rr.verdict = "failed";
    rr.reason = second.status == 0
                    ? "the reconnection failed (" + second.end + (second.error.empty() ? "" : ": " + second.error) + ")"
                    : "the reconnection was answered " + std::to_string(second.status) +
                          ": an EventSource fails the connection for good";
    report.resume = std::move(rr);
    return;
  }

  // Replay: events of the second stream carrying an id the first delivered.
  const auto events1 = identified_events(b1, opt.limits);
  const auto events2 = identified_events(b2, opt.limits);
  std::vector<std::string> ids1;
  for (const auto& e : events1) {
    if (!e.id.empty() && std::find(ids1.begin(), ids1.end(), e.id) == ids1.end()) ids1.push_back(e.id);
  }
  std::optional<std::size_t> first_replay;
  std::optional<std::size_t> last_replay;
  std::optional<std::size_t> first_with_id;
  for (std::size_t i = 0; i < events2.size(); ++i) {
    if (events2[i].id.empty()) continue;
    if (!first_with_id) first_with_id = i;
    if (std::find(ids1.begin(), ids1.end(), events2[i].id) != ids1.end()) {
      ++rr.replayed;
      if (!first_replay) first_replay = i;
      last_replay = i;
    }
  }
  const std::size_t skipped_events = last_replay ? *last_replay + 1 : 0;
  if (last_replay) rr.new_from = skipped_events < events2.size() ? events2[skipped_events].offset : b2.size();
  if (!events2.empty()) rr.first_id = events2.front().id;
  if (events2.empty()) {
    rr.verdict = "empty";
    rr.reason = "the server answered with no event after id " + in_quotes(sent_id) +
                ": nothing newer, so resumption could not be observed (cut the first stream earlier with --max-events)";
  } else if (rr.replayed == 0) {
    rr.verdict = "resumed";
    rr.reason = "the " + counted(events2.size(), "event") + " after reconnecting with id " + in_quotes(sent_id) +
                " repeat none of the ids already received";
  } else if (first_with_id && *first_with_id == *first_replay && !ids1.empty() &&
             events2[*first_replay].id == ids1.front()) {
    rr.verdict = "ignored";
    rr.reason = "the server started over from the first event (id " + in_quotes(ids1.front()) +
                ") instead of resuming after " + in_quotes(sent_id);
    add(report, {"RESUME-IGNORED", "should", *first_replay, events2[*first_replay].offset,
                 "the server ignored Last-Event-ID: the reconnection replayed the stream from its start, so clients "
                 "see " +
                     counted(rr.replayed, "event") + " twice",
                 "events after id " + in_quotes(sent_id), "id " + in_quotes(events2[*first_replay].id) + " again", 1});
  } else {
    rr.verdict = "replayed";
    rr.reason = counted(rr.replayed, "event") + " after reconnecting " +
                (rr.replayed == 1 ? "repeats an id" : "repeat ids") + " already received";
    add(report, {"RESUME-REPLAY", "should", *first_replay, events2[*first_replay].offset,
                 "the resumed stream repeats events the client already had (Last-Event-ID names the last one received)",
                 "events after id " + in_quotes(sent_id), "id " + in_quotes(events2[*first_replay].id) + " again", 1});
  }

  // Producer rules across the reconnection: the first stream's complete
  // frames, then the second stream's new events, as one client sees them
  // (the replayed events are the RESUME-* finding's business, and judging
  // them again would blame each twice). A leading BOM of the second stream
  // is stripped by its own decode, so it is left out here.
  if (opt.dialect != nullptr) {
    std::erase_if(report.findings, [](const check_finding& f) { return level_of(f.rule) == "producer"; });
    const std::uint64_t from = rr.new_from > 0 ? rr.new_from : (b2.starts_with("\xEF\xBB\xBF") ? 3 : 0);
    std::string joined = b1.substr(0, static_cast<std::size_t>(rr.join_offset));
    joined.append(b2, static_cast<std::size_t>(from));
    const std::size_t frames_before = events1.size();
    const auto v = sse::dialect::validate_stream(*opt.dialect, joined, opt.limits);
    for (const auto& f : v.findings) {
      check_finding out{f.rule->id,
                        std::string(sse::dialect::to_string(f.rule->level)),
                        f.frame,
                        f.offset,
                        f.rule->text,
                        f.expected,
                        f.seen,
                        0,
                        std::string(sse::dialect::to_string(f.rule->basis)),
                        sse::dialect::basis_text(*f.rule),
                        f.at_end};
      if (f.offset >= rr.join_offset) {
        out.stream = 1;
        out.offset = f.offset - rr.join_offset + from;
        out.frame = (f.frame >= frames_before ? f.frame - frames_before : 0) + skipped_events;
      }
      report.findings.push_back(std::move(out));
    }
    recount(report);
  }
  report.resume = std::move(rr);
}

void check_resumption(const http::stream_request& req, double max_time_s, const capture& first,
                      const check_options& opt, check_report& report, capture* second_out) {
  resume_report rr;
  rr.verdict = "not_applicable";
  if (first.status == 0) {
    rr.reason = "the first request got no HTTP response (" + first.end + "), so there is nothing to resume";
  } else if (first.status != 200) {
    rr.reason = "the first request gave no event stream (HTTP " + std::to_string(first.status) + ")";
  } else if (report.last_event_id.empty()) {
    rr.reason = "the stream carried no event id (no `id:` field), so there is nothing to resume from";
  }
  if (!rr.reason.empty()) {
    report.resume = std::move(rr);
    return;
  }
  http::stream_request again = req;
  std::erase_if(again.headers, [](const std::string& h) { return lower(h.substr(0, 14)) == "last-event-id:"; });
  again.headers.push_back("Last-Event-ID: " + report.last_event_id);
  capture second = fetch_sampled(again, 0, max_time_s, opt.limits);
  second.source = first.source;
  judge_resumption(first, second, report.last_event_id, opt, report);
  if (second_out != nullptr) *second_out = std::move(second);
}

}  // namespace ssec::live
