// SPDX-License-Identifier: MIT
// Hints to the kernel about fresh memory a capture fills: a body of many MiB
// takes a page fault for each 4 KiB page it first writes, and on a virtual
// machine that fault is most of the copy's time (64 MiB of 64 KiB reads
// here: about 16,000 faults, 0.22-0.3 s, against 17 ms in 2 MiB pages and
// about 0.17 s populated a read at a time). Only hints: the bytes are the
// same either way, and where the kernel lacks them nothing changes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace ssec::live::detail {

// The whole pages inside [data, data + size), as [first, last); empty when none.
inline std::pair<std::uintptr_t, std::uintptr_t> pages_inside(const char* data, std::size_t size,
                                                              std::uintptr_t page) noexcept {
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (begin + page - 1) & ~(page - 1);
  const std::uintptr_t last = (begin + size) & ~(page - 1);
  return {first, last > first ? last : first};
}

// Below this a buffer is left to the allocator: the few 2 MiB pages it could
// hold are not worth a system call.
inline constexpr std::size_t huge_page_worthwhile = std::size_t{8} << 20;

// Asks for 2 MiB pages over a buffer not yet written, where the kernel gives
// them only when asked (transparent_hugepage "madvise", a common default):
// the whole 2 MiB pages inside it (all of it when it is 2 MiB-aligned).
inline void advise_huge_pages(char* data, std::size_t size) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const auto [first, last] = pages_inside(data, size, std::uintptr_t{2} << 20);
  if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#else
  (void)data;
  (void)size;
#endif
}

// advise_huge_pages for a large buffer the allocator placed (not aligned);
// buffers under huge_page_worthwhile are left alone.
inline void prefer_huge_pages(char* data, std::size_t size) noexcept {
  if (size >= huge_page_worthwhile) advise_huge_pages(data, size);
}

// Faults in the pages of a buffer about to be written in one call, rather
// than one fault per page (Linux 5.14's MADV_POPULATE_WRITE; refused, and
// so a no-op, by older kernels).
inline void populate_pages(char* data, std::size_t size) noexcept {
#if defined(__linux__)
  constexpr int populate_write = 23;  // MADV_POPULATE_WRITE, which older headers lack
  const auto [first, last] = pages_inside(data, size, 4096);
  if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, populate_write);
#else
  (void)data;
  (void)size;
#endif
}

// Memory a reader fills as bytes arrive and the checks read back (check's
// slices of the body, the body held for its re-parses). Past huge_from
// bytes it is 2 MiB-aligned, rounded up to 2 MiB, and the kernel is asked
// for 2 MiB pages, so its first writes take one fault per 2 MiB, not per 4
// KiB: on this virtual machine each fault costs about 11 us (8 MiB written
// in 64 KiB steps: 23.6 ms in 4 KiB pages, 0.7 ms in 2 MiB ones), and a 64
// MiB check took about 2,100 of them. Smaller, it is plain heap memory.
class large_buffer {
 public:
  static constexpr std::size_t huge_page = std::size_t{2} << 20;
  static constexpr std::size_t huge_from = std::size_t{1} << 20;

  char* data() noexcept { return data_.get(); }
  const char* data() const noexcept { return data_.get(); }
  std::size_t capacity() const noexcept { return capacity_; }

  // Room for `n` bytes in all, the first `keep` of them kept (a larger
  // buffer replaces this one).
  void reserve(std::size_t n, std::size_t keep) {
    if (n <= capacity_) return;
    std::size_t size = n;
    char* fresh = nullptr;
    if (n >= huge_from) {
      size = (n + huge_page - 1) / huge_page * huge_page;
      fresh = static_cast<char*>(std::aligned_alloc(huge_page, size));
      if (fresh != nullptr) advise_huge_pages(fresh, size);
    } else {
      fresh = static_cast<char*>(std::malloc(size));
    }
    if (fresh == nullptr) throw std::bad_alloc();
    if (keep > 0) std::memcpy(fresh, data_.get(), std::min(keep, capacity_));
    data_.reset(fresh);
    capacity_ = size;
  }
  void release() noexcept {
    data_.reset();
    capacity_ = 0;
  }

 private:
  struct freer {
    void operator()(char* p) const noexcept { std::free(p); }
  };
  std::unique_ptr<char, freer> data_;
  std::size_t capacity_ = 0;
};

}  // namespace ssec::live::detail
