// SPDX-License-Identifier: MIT
// The producer rules following a body on a second thread as it is read
// (check_descriptor and check_request, check_fetch.cpp), in bounded memory.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>
#include <vector>

#include "sse/dialect/validator.hpp"

namespace ssec::live::detail {

// The reads of a body are written straight into slices of validation_slice
// bytes, the unit validate_pieces feeds a validator in (so the report is
// analyze's of the same body); each full slice is handed to the rules'
// thread, and the slices are recycled once it has fed them. At most
// `slices_kept` slices exist: when the rules' thread is that far behind,
// the reader waits for it, so memory does not grow with the body. Without a
// dialect there is no thread, and one slice is reused for every read.
class rules_follower {
 public:
  static constexpr std::size_t slices_kept = 4;

  // `dialect` (which must outlive this object), when given, is followed with `lim`.
  rules_follower(const sse::dialect::dialect_spec* dialect, const sse::limits& lim) {
    if (dialect != nullptr) {
      validator_.emplace(*dialect, lim);
      follower_ = std::thread([this] { follow(); });
    }
  }
  ~rules_follower() { stop_follower(); }
  rules_follower(const rules_follower&) = delete;
  rules_follower& operator=(const rules_follower&) = delete;

  // Room for `n` more bytes of the body (valid until commit).
  char* space(std::size_t n) {
    if (current_ == nullptr) current_ = free_slice();
    current_->reserve(n);
    return current_->data.get() + current_->size;
  }
  // The `n` bytes written at space() belong to the body now; the caller
  // may go on reading them until its next space().
  void commit(std::size_t n) {
    current_->size += n;
    if (!validator_) {
      current_->size = 0;  // nobody reads the body after its read
      return;
    }
    while (current_->size >= sse::dialect::validation_slice) {
      slice* next = free_slice();
      const std::size_t over = current_->size - sse::dialect::validation_slice;
      next->reserve(over);
      std::copy_n(current_->data.get() + sse::dialect::validation_slice, over, next->data.get());
      next->size = over;
      current_->size = sse::dialect::validation_slice;
      hand_over(current_);
      current_ = next;
    }
  }

  // The producer rules' report of the whole body (nullopt without a
  // dialect); call once, after the last commit.
  std::optional<sse::dialect::validation_report> finish(bool read_to_end) {
    if (!validator_) return std::nullopt;
    if (current_ != nullptr && current_->size > 0) hand_over(current_);
    current_ = nullptr;
    stop_follower();
    if (failed_) std::rethrow_exception(failed_);
    return validator_->finish(read_to_end);
  }

 private:
  struct slice {
    std::unique_ptr<char[]> data;
    std::size_t capacity = 0;
    std::size_t size = 0;
    // Room for `n` more bytes (a read longer than the room left grows this slice).
    void reserve(std::size_t n) {
      if (capacity - size >= n) return;
      const std::size_t bigger = std::max(capacity * 2, size + n);
      auto grown = std::make_unique_for_overwrite<char[]>(bigger);
      std::copy_n(data.get(), size, grown.get());
      data = std::move(grown);
      capacity = bigger;
    }
  };

  // A slice to write into: a recycled one, a new one while fewer than
  // slices_kept exist, or else the next the rules' thread gives back.
  slice* free_slice() {
    std::unique_lock lock(mutex_);
    if (free_.empty() && slices_.size() < slices_kept) {
      auto fresh = std::make_unique<slice>();
      fresh->reserve(sse::dialect::validation_slice + read_room);
      slices_.push_back(std::move(fresh));
      return slices_.back().get();
    }
    wake_.wait(lock, [this] { return !free_.empty(); });
    slice* s = free_.back();
    free_.pop_back();
    return s;
  }
  void hand_over(slice* s) {
    {
      std::lock_guard lock(mutex_);
      queued_.push_back(s);
    }
    wake_.notify_all();
  }
  // The rules' loop: each slice in order, then back to the free list. It
  // runs until closed with nothing queued, whatever happens to the
  // validator, so the reader never waits for a slice that does not come.
  void follow() {
    bool going = true;
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [this] { return closed_ || !queued_.empty(); });
      if (queued_.empty()) return;  // closed, and everything fed
      slice* s = queued_.front();
      queued_.pop_front();
      lock.unlock();
      if (going) {
        try {
          // After a fatal wire error the validator ignores the rest.
          going = validator_->feed(std::string_view(s->data.get(), s->size));
        } catch (...) {
          going = false;
          const std::lock_guard failed_lock(mutex_);
          failed_ = std::current_exception();
        }
      }
      lock.lock();
      s->size = 0;
      free_.push_back(s);
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

  // Room beyond a slice for the read that completes it (a pipe's 64 KiB).
  static constexpr std::size_t read_room = std::size_t{64} << 10;

  std::optional<sse::dialect::stream_validator> validator_;
  std::vector<std::unique_ptr<slice>> slices_;  // every slice, owned here
  slice* current_ = nullptr;                    // the slice being written (the reader's alone)
  std::thread follower_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<slice*> free_;   // slices to write into
  std::deque<slice*> queued_;  // full slices the rules' thread has yet to feed
  bool closed_ = false;        // no more slices
  std::exception_ptr failed_;  // what the validator threw
};

}  // namespace ssec::live::detail
