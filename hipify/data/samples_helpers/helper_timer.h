// helper_timer.h for HIP, written by hipify-py: the host timers of NVIDIA's CUDA samples (StopWatchInterface and
// the sdk*Timer functions), with the behaviour NVIDIA documents (milliseconds; the average over the stopped
// sessions), on std::chrono.
#ifndef HIPIFY_SAMPLES_HELPER_TIMER_H
#define HIPIFY_SAMPLES_HELPER_TIMER_H

#include <chrono>

class StopWatchInterface {
 public:
  StopWatchInterface() {}
  virtual ~StopWatchInterface() {}
  virtual void start() = 0;
  virtual void stop() = 0;
  virtual void reset() = 0;
  // Milliseconds: the running session's time plus that of the stopped ones.
  virtual float getTime() = 0;
  // Milliseconds: the stopped sessions' mean.
  virtual float getAverageTime() = 0;
};

class StopWatchLinux : public StopWatchInterface {
 public:
  StopWatchLinux() : running_(false), total_ms_(0.f), last_ms_(0.f), sessions_(0) {}
  ~StopWatchLinux() override {}
  void start() override {
    begin_ = std::chrono::steady_clock::now();
    running_ = true;
  }
  void stop() override {
    if (!running_) return;
    last_ms_ = elapsed();
    total_ms_ += last_ms_;
    running_ = false;
    ++sessions_;
  }
  void reset() override {
    total_ms_ = last_ms_ = 0.f;
    sessions_ = 0;
    if (running_) begin_ = std::chrono::steady_clock::now();
  }
  float getTime() override { return total_ms_ + (running_ ? elapsed() : 0.f); }
  float getAverageTime() override { return sessions_ > 0 ? total_ms_ / sessions_ : 0.f; }

 private:
  float elapsed() const {
    return std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - begin_).count();
  }
  std::chrono::steady_clock::time_point begin_;
  bool running_;
  float total_ms_, last_ms_;
  int sessions_;
};

typedef StopWatchLinux StopWatchWin;

inline bool sdkCreateTimer(StopWatchInterface** timer_interface) {
  *timer_interface = new StopWatchLinux();
  return *timer_interface != nullptr;
}

inline bool sdkDeleteTimer(StopWatchInterface** timer_interface) {
  if (*timer_interface) {
    delete *timer_interface;
    *timer_interface = nullptr;
  }
  return true;
}

inline bool sdkStartTimer(StopWatchInterface** timer_interface) {
  if (*timer_interface) (*timer_interface)->start();
  return true;
}

inline bool sdkStopTimer(StopWatchInterface** timer_interface) {
  if (*timer_interface) (*timer_interface)->stop();
  return true;
}

inline bool sdkResetTimer(StopWatchInterface** timer_interface) {
  if (*timer_interface) (*timer_interface)->reset();
  return true;
}

inline float sdkGetAverageTimerValue(StopWatchInterface** timer_interface) {
  return *timer_interface ? (*timer_interface)->getAverageTime() : 0.f;
}

inline float sdkGetTimerValue(StopWatchInterface** timer_interface) {
  return *timer_interface ? (*timer_interface)->getTime() : 0.f;
}

#endif  // HIPIFY_SAMPLES_HELPER_TIMER_H
