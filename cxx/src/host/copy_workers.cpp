// The process's copy workers (copy_workers.hpp).
#include "host/copy_workers.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <system_error>
#include <thread>

#include "core/env.hpp"

namespace tcgemm::detail {
namespace {

// Pieces of at least this many bytes: smaller ones cost more in hand-over than they gain.
constexpr int64_t kMinPieceBytes = int64_t(1) << 20;

// One copy_runs call: its bytes cut into `pieces` equal ranges, taken by whoever is free.
struct Job {
  CopyRuns runs;
  int pieces = 1;
  std::atomic<int> next{0};
  std::atomic<int> done{0};
};

// Copies bytes [begin, end) of the job, counting its runs' bytes one after the other.
void copy_range(const CopyRuns& r, int64_t begin, int64_t end) {
  while (begin < end) {
    const int64_t run = begin / r.run_bytes, offset = begin % r.run_bytes;
    const int64_t bytes = std::min(r.run_bytes - offset, end - begin);
    std::memcpy(r.dst + run * r.dst_stride + offset, r.src + run * r.src_stride + offset, size_t(bytes));
    begin += bytes;
  }
}

class Workers {
 public:
  Workers() = default;
  // Starts up to `count` helpers; keeps as many as the system gives (a thread that cannot be made leaves the
  // copies to fewer helpers, or to the callers alone). Called once, on the fully built object the helpers
  // keep a pointer to.
  void start(int count) {
    for (int i = 0; i < count; ++i) {
      try {
        std::thread([this] { serve(); }).detach();
      } catch (const std::system_error&) {
        break;
      }
      std::lock_guard<std::mutex> lock(mutex_);
      ++count_;
    }
  }
  int count() {
    std::lock_guard<std::mutex> lock(mutex_);
    return count_;
  }

  void run(const CopyRuns& r) {
    const int64_t total = r.run_bytes * r.runs;
    Job job;
    job.runs = r;
    const int helpers = count();
    job.pieces = int(std::clamp<int64_t>(total / kMinPieceBytes, 1, 4 * (helpers + 1)));
    if (job.pieces > 1 && helpers > 0) {
      std::lock_guard<std::mutex> lock(mutex_);
      queue_.push_back(&job);
      wake_.notify_all();
    }
    work_on(job);
    // Wait for the pieces other threads took, then make sure no worker still holds the job.
    std::unique_lock<std::mutex> lock(mutex_);
    finished_.wait(lock, [&] { return job.done.load() == job.pieces; });
    queue_.erase(std::remove(queue_.begin(), queue_.end(), &job), queue_.end());
    finished_.wait(lock, [&] { return holders_ == 0 || !holding(&job); });
  }

 private:
  static void work_on(Job& job) {
    const int64_t total = job.runs.run_bytes * job.runs.runs;
    for (int i; (i = job.next.fetch_add(1)) < job.pieces;) {
      copy_range(job.runs, total * i / job.pieces, total * (i + 1) / job.pieces);
      job.done.fetch_add(1);
    }
  }
  bool holding(const Job* job) const { return std::find(held_.begin(), held_.end(), job) != held_.end(); }

  void serve() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      // Pieces are taken without the lock (by the jobs' owners too): a job seen with pieces left may have
      // none the moment after, so the job is chosen by the same look that wakes the worker.
      Job* job = nullptr;
      wake_.wait(lock, [&] {
        auto it = std::find_if(queue_.begin(), queue_.end(), [](Job* j) { return j->next.load() < j->pieces; });
        job = it == queue_.end() ? nullptr : *it;
        return job != nullptr;
      });
      ++holders_;
      held_.push_back(job);
      lock.unlock();
      work_on(*job);
      lock.lock();
      held_.erase(std::find(held_.begin(), held_.end(), job));
      --holders_;
      finished_.notify_all();
    }
  }

  std::mutex mutex_;
  int count_ = 0;  // helpers started
  std::condition_variable wake_, finished_;
  std::deque<Job*> queue_;
  std::deque<Job*> held_;  // jobs a worker is copying for now (their owner must not return before)
  int holders_ = 0;
};

int configured_workers() {
  const int64_t asked = env_int("TCGEMM_HOST_COPY_THREADS", 0, INT64_MAX, -1);
  if (asked >= 0) return int(std::min<int64_t>(asked, 64));
  const int hw = int(std::thread::hardware_concurrency());
  return std::clamp(hw / 2, 0, 8);
}

Workers& workers() {
  // Never destroyed: the helpers outlive static destruction.
  static Workers* w = [] {
    Workers* made = new Workers;
    made->start(configured_workers());
    return made;
  }();
  return *w;
}

}  // namespace

void copy_runs(const CopyRuns& job) {
  if (job.runs <= 0 || job.run_bytes <= 0) return;
  workers().run(job);
}

int copy_worker_count() { return workers().count(); }

}  // namespace tcgemm::detail
