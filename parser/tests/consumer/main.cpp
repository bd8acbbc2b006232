// Parses one event through the installed package; exits 0 only if it arrives intact.
#include <sse/recording.hpp>

int main() {
  const auto rec = sse::record_parse(std::string_view("event: ping\ndata: ok\n\n"));
  return rec.events.size() == 1 && rec.events[0].type == "ping" && rec.events[0].data == "ok" ? 0 : 1;
}
