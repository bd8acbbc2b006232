// SPDX-License-Identifier: MIT
// The producer rules following a body on a second thread as it is read
// (check_descriptor and check_request, check_fetch.cpp), in bounded memory.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "page_hints.hpp"
#include "sse/dialect/validator.hpp"

namespace ssec::live::detail {

// The reads of a body are written straight into slices of slice_size bytes
// (a read goes into the current slice while it fits), and each read is
// handed to the rules' thread as it is committed, so a finding is known (and, through `on_finding`, printed)
// as soon as its frame has arrived, not a slice later; the stream_validator's
// report does not depend on where its feeds stop, so it is still
// validate_stream's of the same bytes. A slice is recycled once the reader
// has left it and the rules' thread has fed all of it. At most `slices_kept`
// slices exist: when the rules' thread is that far behind, the reader waits
// for it, so memory does not grow with the body. Without a dialect there is
// no thread, and one slice is reused for every read.
class rules_follower {
 public:
  static constexpr std::size_t slices_kept = 4;
  // One 2 MiB page each (large_buffer): a page fault per slice.
  static constexpr std::size_t slice_size = large_buffer::huge_page;
  /// Called on the rules' thread with each finding stored, in order, as its
  /// frame is judged (end-of-stream findings come only in the report).
  using finding_sink = std::function<void(const sse::dialect::finding&)>;

  // `dialect` (which must outlive this object), when given, is followed with `lim`.
  rules_follower(const sse::dialect::dialect_spec* dialect, const sse::limits& lim, finding_sink on_finding = {})
      : on_finding_(std::move(on_finding)) {
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
    if (current_ != nullptr && current_->size > 0 && current_->data.capacity() - current_->size < n) {
      leave(current_);
      current_ = nullptr;
    }
    if (current_ == nullptr) current_ = free_slice();
    current_->reserve(n);  // grows only a slice nobody else has seen yet
    return current_->data.data() + current_->size;
  }
  // The `n` bytes written at space() belong to the body now, and go to the
  // rules' thread; the caller may go on reading them until its next space().
  void commit(std::size_t n) {
    current_->size += n;
    if (!validator_) {
      current_->size = 0;  // nobody reads the body after its read
      return;
    }
    {
      std::lock_guard lock(mutex_);
      if (current_->fed == current_->handed) queued_.push_back(current_);
      current_->handed = current_->size;
    }
    wake_.notify_all();
  }

  // The producer rules' report of the whole body (nullopt without a
  // dialect); call once, after the last commit.
  std::optional<sse::dialect::validation_report> finish(bool read_to_end) {
    if (!validator_) return std::nullopt;
    current_ = nullptr;
    stop_follower();
    if (failed_) std::rethrow_exception(failed_);
    return validator_->finish(read_to_end);
  }

 private:
  struct slice {
    large_buffer data;
    std::size_t size = 0;    // written by the reader (the reader's alone)
    std::size_t handed = 0;  // committed: the rules' thread may feed up to here (under mutex_)
    std::size_t fed = 0;     // fed by the rules' thread (under mutex_)
    bool left = false;       // the reader has moved on to another slice (under mutex_)
    // Room for `n` more bytes (a read longer than the room left grows this slice).
    void reserve(std::size_t n) {
      if (data.capacity() - size >= n) return;
      data.reserve(std::max(data.capacity() * 2, size + n), size);
    }
  };

  // A slice to write into: a recycled one, a new one while fewer than
  // slices_kept exist, or else the next the rules' thread gives back.
  slice* free_slice() {
    std::unique_lock lock(mutex_);
    if (free_.empty() && slices_.size() < slices_kept) {
      auto fresh = std::make_unique<slice>();
      fresh->reserve(slice_size);
      slices_.push_back(std::move(fresh));
      return slices_.back().get();
    }
    wake_.wait(lock, [this] { return !free_.empty(); });
    slice* s = free_.back();
    free_.pop_back();
    return s;
  }
  // The reader is done with `s`: it is recycled once fed.
  void leave(slice* s) {
    std::lock_guard lock(mutex_);
    s->left = true;
    if (s->fed == s->handed) recycle(s);
  }
  // (under mutex_)
  void recycle(slice* s) {
    s->size = s->handed = s->fed = 0;
    s->left = false;
    free_.push_back(s);
    wake_.notify_all();
  }
  // The rules' loop: the bytes handed over, in order, each slice back to
  // the free list once left and fed. It runs until closed with nothing
  // queued, whatever happens to the validator, so the reader never waits for
  // a slice that does not come.
  void follow() {
    bool going = true;
    std::size_t told = 0;  // findings passed to on_finding_
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [this] { return closed_ || !queued_.empty(); });
      if (queued_.empty()) return;  // closed, and everything fed
      slice* s = queued_.front();
      const std::size_t from = s->fed;
      const std::size_t to = s->handed;
      lock.unlock();
      if (going) {
        try {
          // After a fatal wire error the validator ignores the rest.
          going = validator_->feed(std::string_view(s->data.data() + from, to - from));
          if (on_finding_) {
            const auto& found = validator_->findings();
            for (; told < found.size(); ++told) on_finding_(found[told]);
          }
        } catch (...) {
          going = false;
          const std::lock_guard failed_lock(mutex_);
          failed_ = std::current_exception();
        }
      }
      lock.lock();
      s->fed = to;
      if (s->fed == s->handed) {
        queued_.pop_front();
        if (s->left) recycle(s);
      }
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

  finding_sink on_finding_;
  std::optional<sse::dialect::stream_validator> validator_;
  std::vector<std::unique_ptr<slice>> slices_;  // every slice, owned here
  slice* current_ = nullptr;                    // the slice being written (the reader's alone)
  std::thread follower_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<slice*> free_;   // slices to write into
  std::deque<slice*> queued_;  // slices with bytes handed over and not yet fed, in order
  bool closed_ = false;        // no more bytes
  std::exception_ptr failed_;  // what the validator threw
};

}  // namespace ssec::live::detail
