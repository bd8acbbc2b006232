// SPDX-License-Identifier: MIT
// The body of a stream read from a descriptor, held once, with the producer
// rules following it on a second thread (check_descriptor, check_fetch.cpp).
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>

#include "page_hints.hpp"
#include "sse/dialect/validator.hpp"

namespace ssec::live::detail {

// A body read straight into one buffer, as check_descriptor holds it, with
// the producer rules following it on a second thread: they are fed the
// body's validation_slice slices as they complete (then the rest at the
// end), as validate_pieces feeds them, so their report is analyze's. The
// buffer starts large (address space only: a page is taken when first
// written, in 2 MiB pages where the kernel gives them) and doubles when
// full; it moves only while the follower is between slices.
class followed_body {
 public:
  // `dialect` (which must outlive this object), when given, is followed with `lim`.
  followed_body(std::size_t first_capacity, const sse::dialect::dialect_spec* dialect, const sse::limits& lim) {
    grow_to(std::max<std::size_t>(first_capacity, 1));
    if (dialect != nullptr) {
      validator_.emplace(*dialect, lim);
      follower_ = std::thread([this] { follow(); });
    }
  }
  ~followed_body() { stop_follower(); }
  followed_body(const followed_body&) = delete;
  followed_body& operator=(const followed_body&) = delete;

  // Room for `n` more bytes at the end of the body (valid until the next call).
  char* space(std::size_t n) {
    if (capacity_ - size_ < n) {
      std::unique_lock lock(mutex_);
      moving_ = true;
      wake_.wait(lock, [this] { return !feeding_; });
      grow_to(std::max(capacity_ * 2, size_ + n));
      moving_ = false;
      wake_.notify_all();
    }
    return data_.get() + size_;
  }
  // The `n` bytes written at space() belong to the body now.
  void commit(std::size_t n) {
    std::lock_guard lock(mutex_);
    size_ += n;
    if (size_ - fed_ >= sse::dialect::validation_slice) wake_.notify_all();
  }
  std::string_view view() const noexcept { return {data_.get(), size_}; }

  // The producer rules' report of the whole body (nullopt without a
  // dialect); call once, after the last commit.
  std::optional<sse::dialect::validation_report> finish(bool read_to_end) {
    if (!validator_) return std::nullopt;
    stop_follower();
    if (failed_) std::rethrow_exception(failed_);
    return validator_->finish(read_to_end);
  }

 private:
  void grow_to(std::size_t capacity) {
    auto bigger = std::make_unique_for_overwrite<char[]>(capacity);
    prefer_huge_pages(bigger.get(), capacity);
    std::copy_n(data_.get(), size_, bigger.get());
    data_ = std::move(bigger);
    capacity_ = capacity;
  }
  // The follower's loop: whole slices as they complete, the rest once closed.
  void follow() {
    try {
      std::unique_lock lock(mutex_);
      for (;;) {
        wake_.wait(lock, [this] { return !moving_ && (closed_ || size_ - fed_ >= sse::dialect::validation_slice); });
        const std::size_t n = std::min(size_ - fed_, sse::dialect::validation_slice);
        if (n == 0) return;  // closed, and everything fed
        const std::string_view slice(data_.get() + fed_, n);
        feeding_ = true;
        lock.unlock();
        const bool going = validator_->feed(slice);
        lock.lock();
        feeding_ = false;
        fed_ += n;
        wake_.notify_all();
        if (!going) return;  // a fatal wire error: the validator ignores the rest
      }
    } catch (...) {
      std::lock_guard lock(mutex_);
      feeding_ = false;
      failed_ = std::current_exception();
      wake_.notify_all();
    }
  }
  void stop_follower() {
    {
      std::lock_guard lock(mutex_);
      closed_ = true;
    }
    wake_.notify_all();
    if (follower_.joinable()) follower_.join();
  }

  std::unique_ptr<char[]> data_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
  std::optional<sse::dialect::stream_validator> validator_;
  std::thread follower_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::size_t fed_ = 0;   // bytes the follower has fed the validator
  bool feeding_ = false;  // the follower is reading a slice of the buffer
  bool moving_ = false;   // the buffer is being replaced by a larger one
  bool closed_ = false;   // no more commits
  std::exception_ptr failed_;
};

}  // namespace ssec::live::detail
