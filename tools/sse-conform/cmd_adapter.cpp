// SPDX-License-Identifier: MIT
// `sse-conform adapter`: the reference parser behind the adapter protocol,
// version 1 (docs/adapter-protocol.md), so the harness drives it exactly as it
// drives any external implementation; its `connect` operation runs the
// reference EventSource client (client cases).
#include <unistd.h>

#include <cerrno>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "contract_options.hpp"
#include "sse/dialect/decoder.hpp"
#include "sse/recording.hpp"
#include "ssec/adapter/protocol.hpp"
#include "ssec/adapter/wire_json.hpp"
#include "ssec/live/event_source.hpp"
#include "ssec/support/base64.hpp"

namespace ssec::cli {
namespace {

using nlohmann::json;
using ordered = nlohmann::ordered_json;

// wire, the contract's dialects, then client (the `connect` operation).
std::vector<std::string> layers(const sse::dialect::catalog& contract) {
  std::vector<std::string> out{"wire"};
  for (const auto& d : contract.dialects()) out.push_back(d->name);
  out.emplace_back("client");
  return out;
}

ordered error_answer(const json& request, std::string message) {
  ordered answer;
  if (request.is_object() && request.contains("op") && request["op"] != "parse") answer["op"] = request["op"];
  if (request.is_object() && request.contains("id")) answer["id"] = request["id"];
  answer["error"] = std::move(message);
  return answer;
}

// {"op":"connect"}: the reference EventSource client (live::run_event_source)
// connects to the URL and runs until it is closed, fails or reaches the limit.
ordered answer_connect(const json& request) {
  const auto member = [&](const char* key) { return request.contains(key) ? request[key] : json(); };
  const json id = member("id");
  const json url = member("url");
  if (!id.is_string() || !url.is_string()) return error_answer(request, "connect needs a string \"id\" and \"url\"");
  live::event_source_options o;
  o.url = url.get<std::string>();
  if (const json n = member("close_after_events"); !n.is_null()) {
    if (!n.is_number_unsigned()) return error_answer(request, "\"close_after_events\" must be a whole number");
    o.close_after_events = n.get<std::size_t>();
  }
  if (const json n = member("limit_ms"); !n.is_null()) {
    if (!n.is_number() || n.get<double>() <= 0 || n.get<double>() > 600000) {
      return error_answer(request, "\"limit_ms\" must be a number of milliseconds from 1 to 600000");
    }
    o.limit_ms = n.get<double>();
  }
  const auto run = live::run_event_source(o);
  ordered events = ordered::array();
  for (const auto& e : run.events) events.push_back(to_json(e));
  return ordered{{"id", id}, {"events", std::move(events)}, {"ended", run.ended}};
}

// A parse request's failure: its id, then the error (error_answer's shape for op "parse").
ordered parse_error_answer(const std::string& id, std::string message) {
  return ordered{{"id", id}, {"error", std::move(message)}};
}

ordered answer_wire(const std::string& id, const std::vector<std::string_view>& chunks) {
  const sse::recording rec = sse::record_parse(chunks);
  if (sse::is_fatal(rec.status)) return parse_error_answer(id, describe_error(rec.status, rec.error_offset));
  ordered events = ordered::array();
  for (const auto& e : rec.events) events.push_back(to_json(e));
  return ordered{
      {"id", id}, {"events", std::move(events)}, {"retry", rec.retry ? ordered(*rec.retry) : ordered(nullptr)}};
}

// A dialect layer: the dialect events of spec/FORMAT.md section 2 (no retry).
ordered answer_dialect(const std::string& id, const sse::dialect::dialect_spec& dialect,
                       const std::vector<std::string_view>& chunks) {
  const auto decoded = sse::dialect::decode_stream(dialect, chunks);
  if (sse::is_fatal(decoded.status))
    return parse_error_answer(id, describe_error(decoded.status, decoded.error_offset));
  ordered events = ordered::array();
  for (const auto& e : decoded.events) events.push_back(sse::dialect::to_json(e));
  return ordered{{"id", id}, {"events", std::move(events)}};
}

// A checked parse request's answer, however it was read.
ordered answer_parse(const std::string& id, const std::string& layer, const std::vector<std::string_view>& chunks,
                     const sse::dialect::catalog& contract) {
  if (layer == "wire") return answer_wire(id, chunks);
  if (const auto* dialect = contract.dialect(layer)) return answer_dialect(id, *dialect, chunks);
  return parse_error_answer(id, "layer \"" + layer + "\" is not supported");
}

ordered answer(const json& request, const sse::dialect::catalog& contract) {
  if (!request.is_object() || !request.contains("op") || !request["op"].is_string()) {
    return error_answer(request, "a request must be a JSON object with a string \"op\"");
  }
  const std::string op = request["op"].get<std::string>();
  if (op == "hello") {
    if (!request.contains("protocol") || request["protocol"] != adapter_protocol_version) {
      return error_answer(
          request, "unsupported protocol version; this adapter speaks " + std::to_string(adapter_protocol_version));
    }
    return ordered{{"op", "hello"},
                   {"protocol", adapter_protocol_version},
                   {"name", "sse-conform reference"},
                   {"version", SSEC_VERSION},
                   {"layers", layers(contract)},
                   {"capabilities", reference_capabilities()},
                   {"max_in_flight", adapter_max_in_flight}};
  }
  if (op == "connect") return answer_connect(request);
  if (op != "parse") return error_answer(request, "unknown op \"" + op + "\"");
  const auto parse = parse_request_from_json(request);
  if (!parse) return error_answer(request, parse.error().message);
  const std::vector<std::string_view> chunks(parse->chunks.begin(), parse->chunks.end());
  return answer_parse(parse->id, parse->layer, chunks, contract);
}

// {"op":"bye"}; any other request, whatever its members' types, is answered.
bool says_bye(const json& request) { return request.is_object() && request.value("op", json()) == "bye"; }

// The default of --max-request-bytes: four times the harness's longest
// request (about 231 MiB, the byte-by-byte chunking of a 33 MiB limits case).
constexpr std::size_t default_max_request_bytes = std::size_t{1} << 30;

int run_adapter(const conformance::contract_source& source, std::size_t max_request_bytes) {
  const auto contract = load_contract_or_say_why(source, "adapter");
  if (!contract) return exit_usage;
  std::ios::sync_with_stdio(false);
  // Pipelined requests (max_in_flight): every complete line read so far is
  // answered in order, each answer written as soon as it is made (the
  // harness grades it while the next is computed); a partial request still
  // arriving never holds back the answers before it.
  std::string buffer;
  std::size_t scanned = 0;  // buffer[0, scanned) holds no LF
  bool skipping = false;    // in a request line refused as too long: dropped up to its LF
  char chunk[1 << 16];
  for (;;) {
    const ssize_t n = ::read(STDIN_FILENO, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // end of standard input means bye
    std::string_view piece(chunk, static_cast<std::size_t>(n));
    if (skipping) {
      const auto lf = piece.find('\n');
      if (lf == std::string_view::npos) continue;
      piece.remove_prefix(lf + 1);
      skipping = false;
    }
    buffer.append(piece);
    std::size_t from = 0;
    for (std::size_t lf = buffer.find('\n', scanned); lf != std::string::npos; lf = buffer.find('\n', from)) {
      const std::string_view line(buffer.data() + from, lf - from);
      from = lf + 1;
      // Well-formed parse requests skip the DOM (read_parse_request_line says
      // when); everything else is read and answered the general way.
      if (const auto parse = read_parse_request_line(line)) {
        std::cout << dump_line(answer_parse(parse->id, parse->layer, parse->chunks, *contract)) << '\n' << std::flush;
        continue;
      }
      json request = json::parse(line, nullptr, false);
      if (request.is_discarded()) {
        std::cout << dump_line(ordered{{"error", "request is not valid JSON"}}) << '\n';
        continue;
      }
      if (says_bye(request)) {
        std::cout << std::flush;
        return exit_ok;
      }
      std::cout << dump_line(answer(request, *contract)) << '\n' << std::flush;
    }
    buffer.erase(0, from);
    scanned = buffer.size();
    // A request still arriving past the bound is answered now, as refused,
    // and the rest of its line is dropped as it comes: what the adapter holds
    // is bounded by the option, not by its input.
    if (buffer.size() > max_request_bytes) {
      std::cout << dump_line(ordered{{"error", "request line longer than " + std::to_string(max_request_bytes) +
                                                   " bytes (--max-request-bytes): skipped to its end"}})
                << '\n';
      std::string().swap(buffer);
      scanned = 0;
      skipping = true;
    }
    std::cout << std::flush;
  }
  // A last line without LF is still a request (std::getline read it so).
  if (!buffer.empty()) {
    json request = json::parse(buffer, nullptr, false);
    if (request.is_discarded()) std::cout << dump_line(ordered{{"error", "request is not valid JSON"}}) << '\n';
    else if (!says_bye(request)) std::cout << dump_line(answer(request, *contract)) << '\n';
  }
  std::cout << std::flush;
  return exit_ok;
}

}  // namespace

void add_adapter_command(CLI::App& app, int& code) {
  CLI::App* cmd = app.add_subcommand(
      "adapter", "Serve the reference parser over the adapter protocol (JSON lines on stdin/stdout)");
  auto contract = std::make_shared<conformance::contract_source>();
  add_contract_options(cmd, *contract);
  auto max_request_bytes = std::make_shared<std::size_t>(default_max_request_bytes);
  cmd->add_option("--max-request-bytes", *max_request_bytes,
                  "Longest request line held; a longer one is answered with an error and skipped")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->callback([contract, max_request_bytes, &code] { code = run_adapter(*contract, *max_request_bytes); });
}

}  // namespace ssec::cli
