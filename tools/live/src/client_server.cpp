// SPDX-License-Identifier: MIT
#include "ssec/live/client_server.hpp"

#include <atomic>
#include <thread>
#include <vector>

namespace ssec::live {

namespace {
using clock = std::chrono::steady_clock;
namespace conf = ssec::conformance;

constexpr std::string_view prefix = "/client/";
// A held response writes a comment this often: a comment dispatches nothing,
// and a failed write is how the server learns the client has left.
constexpr std::chrono::milliseconds hold_tick{50};

double ms_since(clock::time_point start) {
  return std::chrono::duration<double, std::milli>(clock::now() - start).count();
}

// The script's number in a path /client/<n>/<name>, or 0.
std::uint64_t key_of(std::string_view path) {
  if (!path.starts_with(prefix)) return 0;
  path.remove_prefix(prefix.size());
  std::uint64_t n = 0;
  std::size_t digits = 0;
  for (; digits < path.size() && digits < 18 && path[digits] >= '0' && path[digits] <= '9'; ++digits) {
    n = n * 10 + static_cast<std::uint64_t>(path[digits] - '0');
  }
  return digits > 0 && (digits == path.size() || path[digits] == '/') ? n : 0;
}
}  // namespace

struct client_scripts::state {
  struct played {
    conf::client_script script;
    std::string name;
    clock::time_point start;
    std::vector<conf::observed_request> requests;
    std::vector<std::optional<double>> ended;  // by connection attempt
    std::size_t attempts = 0;
  };
  mutable std::mutex mutex;
  std::map<std::uint64_t, played> scripts;
  std::uint64_t next = 1;
  std::atomic<const http::server*> server{nullptr};

  bool stopping() const {
    const http::server* s = server.load();
    return s != nullptr && s->stopping();
  }
  void ended(std::uint64_t key, std::size_t attempt) {
    std::lock_guard lock(mutex);
    const auto it = scripts.find(key);
    if (it == scripts.end()) return;
    auto& p = it->second;
    if (attempt < p.ended.size()) p.ended[attempt] = ms_since(p.start);
  }
};

client_scripts::client_scripts() : state_(std::make_shared<state>()) {}
client_scripts::~client_scripts() = default;

void client_scripts::attach(const http::server* server) { state_->server.store(server); }

bool client_scripts::serves(std::string_view path) { return path.starts_with(prefix); }

void client_scripts::handle(const http::request& req, http::response& res) {
  state& st = *state_;
  const std::uint64_t key = key_of(req.path);
  std::optional<conf::scripted_response> answer;
  std::size_t attempt = 0;
  {
    std::lock_guard lock(st.mutex);
    const auto it = key == 0 ? st.scripts.end() : st.scripts.find(key);
    if (it == st.scripts.end()) {
      res.send(404, "text/plain", "sse-conform: no client script at " + req.path + "\n");
      return;
    }
    auto& p = it->second;
    attempt = p.attempts++;
    if (p.requests.size() < client_max_recorded_requests) {
      p.requests.push_back(conf::observed_request{ms_since(p.start), req.target, req.headers});
      p.ended.emplace_back();
    }
    if (attempt < p.script.responses.size()) answer = p.script.responses[attempt];
  }
  if (!answer) {
    // Beyond the script: 204 tells a conforming client to stop.
    res.start(204, {{"Cache-Control", "no-cache"}});
    st.ended(key, attempt);
    return;
  }
  std::vector<std::pair<std::string, std::string>> headers{{"Cache-Control", "no-cache"}};
  const bool bodiless = answer->status == 204 || answer->status == 304;
  if (!answer->content_type.empty() && !bodiless) headers.emplace_back("Content-Type", answer->content_type);
  if (answer->location == "next") headers.emplace_back("Location", req.target);
  res.start(answer->status, headers);
  if (!bodiless && !answer->body.empty()) res.write(answer->body);
  switch (answer->end) {
    case conf::response_end::close: break;
    case conf::response_end::reset: res.reset_connection(); break;
    case conf::response_end::hold: {
      const auto until = clock::now() + std::chrono::milliseconds(static_cast<long>(conf::client_max_limit_ms));
      while (!st.stopping() && clock::now() < until) {
        std::this_thread::sleep_for(hold_tick);
        if (!res.write(":\n")) break;
      }
      break;
    }
  }
  st.ended(key, attempt);
}

std::string client_scripts::add(const conf::client_script& script, const std::string& name) {
  std::lock_guard lock(state_->mutex);
  if (state_->scripts.size() >= client_max_scripts) state_->scripts.erase(state_->scripts.begin());
  const std::uint64_t key = state_->next++;
  state_->scripts[key] = state::played{script, name, clock::now(), {}, {}, 0};
  std::string readable;
  for (const char ch : name) {
    const bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '-';
    readable.push_back(keep ? ch : '-');
  }
  return std::string(prefix) + std::to_string(key) + "/" + readable;
}

std::optional<conf::client_observation> client_scripts::observed(std::string_view path) const {
  std::lock_guard lock(state_->mutex);
  const auto it = state_->scripts.find(key_of(path));
  if (it == state_->scripts.end()) return std::nullopt;
  conf::client_observation o;
  o.requests = it->second.requests;
  o.response_ended_ms = it->second.ended;
  return o;
}

std::optional<std::string> client_scripts::name_of(std::string_view path) const {
  std::lock_guard lock(state_->mutex);
  const auto it = state_->scripts.find(key_of(path));
  if (it == state_->scripts.end()) return std::nullopt;
  return it->second.name;
}

void client_scripts::remove(std::string_view path) {
  std::lock_guard lock(state_->mutex);
  state_->scripts.erase(key_of(path));
}

ssec::result<std::unique_ptr<client_server>> client_server::start(std::string address, std::uint16_t port) {
  std::unique_ptr<client_server> out(new client_server());
  out->scripts_ = std::make_shared<client_scripts>();
  auto scripts = out->scripts_;
  auto started =
      http::server::start([scripts](const http::request& req, http::response& res) { scripts->handle(req, res); },
                          std::move(address), port);
  if (!started) return started.error();
  out->server_ = std::move(started.value());
  out->scripts_->attach(out->server_.get());
  return {std::move(out)};
}

client_server::~client_server() { stop(); }

std::string client_server::base_url() const { return server_->base_url(); }

void client_server::stop() {
  if (server_) server_->stop();
}

std::string client_server::path_of(const std::string& url) const {
  const std::string base = server_->base_url();
  return url.starts_with(base) ? url.substr(base.size()) : std::string();
}

std::string client_server::add(const conf::client_script& script, const std::string& name) {
  return server_->base_url() + scripts_->add(script, name);
}

conf::client_observation client_server::observed(const std::string& url) const {
  return scripts_->observed(path_of(url)).value_or(conf::client_observation{});
}

void client_server::remove(const std::string& url) { scripts_->remove(path_of(url)); }

}  // namespace ssec::live
