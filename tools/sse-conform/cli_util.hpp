// SPDX-License-Identifier: MIT
// What every subcommand's glue shares: `-` as standard output, one output on
// standard output at a time, colour on a terminal, and numeric ranges that
// say what is valid (tools/docs/cli.md, "Conventions"), a temporary folder.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

namespace ssec::cli {

/// A temporary folder removed when it goes out of scope (`path` empty when
/// it could not be made): where `--against REV` copies OLD out of git.
struct temp_dir {
  std::filesystem::path path;
  temp_dir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "sse-conform-diff-XXXXXX").string();
    if (mkdtemp(tmpl.data()) != nullptr) path = tmpl;
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  ~temp_dir() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
};

/// This executable's path, for the command lines the reports print
/// ("sse-conform" when /proc does not say).
inline std::string self_path() {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("sse-conform") : p.string();
}

/// Writes `text` to `path`, or to standard output when `path` is "-". False
/// (after saying so on stderr, as `command`) when the file cannot be written.
inline bool write_output(std::string_view command, const std::string& path, const std::string& text) {
  if (path == "-") {
    std::cout << text << std::flush;
    return true;  // a failed write to standard output is reported at exit (flush_standard_output)
  }
  errno = 0;
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) {
    std::cerr << "sse-conform " << command << ": " << path << ": cannot write"
              << (errno != 0 ? std::string(": ") + std::strerror(errno) : std::string()) << "\n";
    return false;
  }
  return true;
}

/// Flushes standard output (both std::cout and stdio's stdout). False, after
/// saying so on stderr with the system's reason, when anything written to it
/// was lost: a full disk, a closed pipe (EPIPE; SIGPIPE is ignored so that
/// the write fails rather than killing the process silently).
inline bool flush_standard_output() {
  errno = 0;
  std::cout.flush();
  const bool stream_ok = static_cast<bool>(std::cout);
  const bool stdio_ok = std::fflush(stdout) == 0 && std::ferror(stdout) == 0;
  if (stream_ok && stdio_ok) return true;
  std::cerr << "sse-conform: cannot write to standard output"
            << (errno != 0 ? std::string(": ") + std::strerror(errno) : std::string())
            << "; the output is incomplete\n";
  return false;
}

/// `outputs` pairs an option name with the path it was given (empty: not
/// given). When two of them are "-", says so (as `command`) and returns false:
/// two reports interleaved on standard output parse as neither.
inline bool one_stdout_output(std::string_view command,
                              const std::vector<std::pair<std::string_view, std::string_view>>& outputs) {
  std::string_view first;
  for (const auto& [name, path] : outputs) {
    if (path != "-") continue;
    if (first.empty()) {
      first = name;
      continue;
    }
    std::cerr << "sse-conform " << command << ": " << first << " - and " << name
              << " - both write to standard output; send one of them to a file\n";
    return false;
  }
  return true;
}

/// True when output to `fd` is a terminal and NO_COLOR is unset or empty
/// (https://no-color.org).
inline bool colour_for(int fd) {
  const char* no_color = std::getenv("NO_COLOR");
  return ::isatty(fd) != 0 && !(no_color != nullptr && *no_color != '\0');
}

/// `text` in an ANSI colour (31 red, 32 green, 33 yellow, 1 bold) when `on`.
inline std::string paint(bool on, std::string_view code, std::string_view text) {
  if (!on) return std::string(text);
  return "\x1b[" + std::string(code) + "m" + std::string(text) + "\x1b[0m";
}

/// A number as a user writes it ("0.5", "100000").
template <class T>
std::string number_text(T v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

/// Reads a whole number or decimal as CLI11 does, but refuses a minus sign
/// for an unsigned type (CLI11 alone would wrap "-1" around).
template <class T>
bool parse_number(const std::string& input, T& value) {
  if constexpr (std::is_unsigned_v<T>) {
    if (input.find('-') != std::string::npos) return false;
  }
  return CLI::detail::lexical_cast(input, value);
}

/// A range check whose message names the option's valid range in words,
/// e.g. "must be between 1 and 100000" (CLI11's own reads `UINT in [1 - 100000]`).
template <class T>
CLI::Validator in_range(T low, T high) {
  return CLI::Validator(
      [low, high](std::string& input) -> std::string {
        T value{};
        if (!parse_number(input, value) || value < low || value > high) {
          return "'" + input + "' is not a number between " + number_text(low) + " and " + number_text(high);
        }
        return {};
      },
      number_text(low) + ".." + number_text(high));
}

/// At least `low` (no upper bound but the type's).
template <class T>
CLI::Validator at_least(T low) {
  return CLI::Validator(
      [low](std::string& input) -> std::string {
        T value{};
        if (!parse_number(input, value) || value < low) {
          return "'" + input + "' is not a number of at least " + number_text(low);
        }
        return {};
      },
      ">=" + number_text(low));
}

/// Levenshtein distance (insertions, deletions, substitutions).
inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

/// "; did you mean 'parse'?" for the nearest of `names` within a third of the
/// word's length (at least 2 edits), or a prefix match; else empty.
inline std::string did_you_mean(std::string_view word, const std::vector<std::string>& names) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (const auto& n : names) {
    const std::size_t d = n.starts_with(word) && !word.empty() ? 0 : edit_distance(word, n);
    if (d < best_distance) {
      best_distance = d;
      best = n;
    }
  }
  return best.empty() ? std::string() : "; did you mean '" + best + "'?";
}

/// After a failed parse: "sse-conform check: unknown option '--jsn'; did you
/// mean '--json'?" for the first argument that looks like an option and is
/// none of the selected command's (or of the tool's, before a command);
/// empty when every option is known, so CLI11's own message stands.
inline std::string unknown_option_hint(CLI::App& app, int argc, char** argv) {
  // The command and its sub-commands as typed (`catalog diff`), each taking
  // the options of those above it too.
  std::vector<const CLI::App*> chain{&app};
  std::string path = "sse-conform";
  int first = 1;
  for (bool descended = true; descended && first < argc;) {
    descended = false;
    for (const CLI::App* sub : chain.back()->get_subcommands({})) {
      if (sub->get_name() == argv[first]) {
        chain.push_back(sub);
        path += " " + sub->get_name();
        ++first;
        descended = true;
        break;
      }
    }
  }
  std::vector<std::string> known, taking_a_value;
  for (const CLI::App* level : chain) {
    for (const CLI::Option* opt : level->get_options()) {
      std::vector<std::string> names;
      for (const auto& name : opt->get_lnames()) names.push_back("--" + name);
      for (const auto& name : opt->get_snames()) names.push_back("-" + name);
      known.insert(known.end(), names.begin(), names.end());
      if (opt->get_type_size() != 0) taking_a_value.insert(taking_a_value.end(), names.begin(), names.end());
    }
  }
  const auto is_in = [](const std::vector<std::string>& names, std::string_view name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  for (int i = first; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") break;
    // The value of the option before it (`--seed -1`, `-H -x`) or a negative number.
    if (i > first && is_in(taking_a_value, argv[i - 1])) continue;
    if (arg.size() < 2 || arg[0] != '-' || std::isdigit(static_cast<unsigned char>(arg[1])) != 0 || arg[1] == '.') {
      continue;
    }
    const std::string name(arg.substr(0, arg.find('=')));
    // -abc is CLI11's group of short flags; judge its first only.
    const std::string checked = name.starts_with("--") ? name : name.substr(0, 2);
    if (is_in(known, checked)) continue;
    return path + ": unknown option '" + checked + "'" + did_you_mean(checked, known) + " (`" + path +
           " --help` lists the options)";
  }
  return {};
}

}  // namespace ssec::cli
