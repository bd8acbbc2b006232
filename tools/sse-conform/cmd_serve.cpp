// SPDX-License-Identifier: MIT
// `sse-conform serve`: the conformance cases over HTTP with fault injection,
// the client cases' scripts, and the browser page (tools/docs/serve.md). Runs until interrupted, or for
// --duration-s; with --browser-results it stops once a browser posted and
// prints its matrix rows.
#include <algorithm>
#include <csignal>
#include <fstream>
#include <iostream>
#include <thread>

#include "case_options.hpp"
#include "cli_util.hpp"
#include "commands.hpp"
#include "data_dir.hpp"
#include "ssec/conformance/loader.hpp"
#include "ssec/live/serve.hpp"
#include "ssec/support/text.hpp"

namespace ssec::cli {
namespace {

struct serve_cli {
  case_source source = installed_cases();
  std::string client_cases = ssec::data_path("conformance/clients");
  std::string bind = "127.0.0.1";
  std::uint16_t port = 8080;
  double duration_s = 0;
  std::string browser_results;
  std::vector<std::string> streams;
};

volatile std::sig_atomic_t interrupted = 0;

int run_serve(const serve_cli& o) {
  auto loaded = load_cases_saying_why(o.source, "serve");
  if (!loaded.ok) return exit_usage;
  if (!o.client_cases.empty()) {
    case_source clients = o.source;
    clients.cases = o.client_cases;
    clients.option = "--client-cases";
    auto played = load_cases_saying_why(clients, "serve");
    if (!played.ok) return exit_usage;
    for (auto& c : played.cases) loaded.cases.push_back(std::move(c));
  }
  std::vector<live::served_stream> streams;
  for (const auto& path : o.streams) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::cerr << "sse-conform serve: cannot read " << path << '\n';
      return exit_usage;
    }
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto slash = path.find_last_of('/');
    streams.push_back({slash == std::string::npos ? path : path.substr(slash + 1), std::move(bytes), {}});
  }
  const auto client_count = static_cast<std::size_t>(std::count_if(
      loaded.cases.begin(), loaded.cases.end(), [](const auto& c) { return c.layer == conformance::layer::client; }));
  const std::size_t count = loaded.cases.size() - client_count;
  auto started = live::case_server::start(std::move(loaded.cases), std::move(streams), o.bind, o.port);
  if (!started) {
    std::cerr << "sse-conform serve: " << started.error().message << '\n';
    return exit_usage;
  }
  live::case_server& server = **started;
  std::cout << "sse-conform serve: " << counted(count, "case")
            << (client_count > 0 ? " and " + counted(client_count, "client case") : std::string()) << " at "
            << server.base_url() << "/  (browser page: " << server.base_url() << "/browser)" << std::endl;
  std::signal(SIGINT, [](int) { interrupted = 1; });
  std::signal(SIGTERM, [](int) { interrupted = 1; });
  const auto start = std::chrono::steady_clock::now();
  std::size_t posts_told = 0;
  // Every graded post is told as it arrives: the browser's verdict.
  const auto tell_posts = [&] {
    const std::size_t posts = server.browser_posts();
    if (posts == posts_told) return;
    posts_told = posts;
    std::cout << "sse-conform serve: browser results: " << live::grade_of(server.browser_rows()).sentence()
              << std::endl;
  };
  while (!interrupted) {
    if (o.duration_s > 0 && std::chrono::steady_clock::now() - start > std::chrono::duration<double>(o.duration_s))
      break;
    if (!o.browser_results.empty() && server.wait_for_browser(std::chrono::milliseconds(100))) break;
    if (o.browser_results.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    tell_posts();
  }
  server.stop();
  tell_posts();
  if (!o.browser_results.empty()) {
    const auto rows = server.browser_rows();
    std::ofstream out(o.browser_results);
    out << live::matrix_lines(rows);
    if (rows.empty()) return exit_usage;
    return live::grade_of(rows).conforming() ? exit_ok : exit_failure;
  }
  return exit_ok;
}

}  // namespace

void add_serve_command(CLI::App& app, int& code) {
  auto o = std::make_shared<serve_cli>();
  CLI::App* cmd = app.add_subcommand(
      "serve", "Serve the cases over HTTP with fault injection and a browser page (tools/docs/serve.md)");
  add_case_options(cmd, o->source);
  cmd->add_option("--client-cases", o->client_cases,
                  "Client case directory, played for the browser page (\"\": none; tools/docs/client-cases.md)")
      ->capture_default_str();
  cmd->add_option("--bind", o->bind, "Address to listen on")->capture_default_str();
  cmd->add_option("--port", o->port, "Port (0: any free port)")->capture_default_str()->check(in_range(0, 65535));
  cmd->add_option("--stream", o->streams, "Also serve this file at /stream/<file name>");
  cmd->add_option("--duration-s", o->duration_s, "Stop after this many seconds (0: until interrupted)")
      ->check(at_least(0.0));
  cmd->add_option("--browser-results", o->browser_results,
                  "Stop once a browser posted its results and write its matrix rows to this file");
  cmd->callback([o, &code] { code = run_serve(*o); });
}

}  // namespace ssec::cli
