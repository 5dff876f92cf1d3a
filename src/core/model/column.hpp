// model: a column of plain values (times, packed calls), held in memory from
// malloc, so that it can be shrunk where it lies (realloc gives the tail back:
// natively its pages, in WebAssembly the heap's) and handed from one owner to
// another as raw memory (release/adopt): the timeline writes its 32-bit
// starts over the 64-bit start column it took from the run, then keeps the
// first half (timeline/build.cpp). Otherwise it behaves as a std::vector of T
// for what the core uses: new elements are zero (resize_for_overwrite
// leaves them unwritten), growth doubles.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace scope_speedscope {

template <class T>
class Column {
  static_assert(std::is_trivially_copyable_v<T>, "a column holds plain values");

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  Column() = default;
  Column(std::initializer_list<T> values) { assign(values.begin(), values.end()); }
  explicit Column(const std::vector<T>& values) {
    assign(values.data(), values.data() + values.size());
  }
  Column(const Column& other) { assign(other.begin(), other.end()); }
  Column(Column&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        capacity_(std::exchange(other.capacity_, 0)) {}
  Column& operator=(const Column& other) {
    if (this != &other) assign(other.begin(), other.end());
    return *this;
  }
  Column& operator=(Column&& other) noexcept {
    if (this != &other) {
      std::free(data_);
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
      capacity_ = std::exchange(other.capacity_, 0);
    }
    return *this;
  }
  Column& operator=(std::initializer_list<T> values) {
    assign(values.begin(), values.end());
    return *this;
  }
  ~Column() { std::free(data_); }

  std::size_t size() const noexcept { return size_; }
  std::size_t capacity() const noexcept { return capacity_; }
  bool empty() const noexcept { return size_ == 0; }
  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  T* begin() noexcept { return data_; }
  T* end() noexcept { return data_ + size_; }
  const T* begin() const noexcept { return data_; }
  const T* end() const noexcept { return data_ + size_; }
  T& front() noexcept { return data_[0]; }
  T& back() noexcept { return data_[size_ - 1]; }
  const T& back() const noexcept { return data_[size_ - 1]; }

  void reserve(std::size_t n) {
    if (n > capacity_) reallocate(n);
  }
  void resize(std::size_t n, T value = T{}) {
    reserve(n);
    for (std::size_t i = size_; i < n; ++i) data_[i] = value;
    size_ = n;
  }
  // Grows (or shrinks) to n elements without writing the new ones: for a
  // caller that writes every one of them next (zeroing them first would
  // touch the memory twice).
  void resize_for_overwrite(std::size_t n) {
    reserve(n);
    size_ = n;
  }
  void push_back(T value) {
    if (size_ == capacity_) reallocate(capacity_ < 8 ? 8 : capacity_ * 2);
    data_[size_++] = value;
  }
  // Appends [first, last) (which may not lie in this column).
  void append(const T* first, const T* last) {
    const auto n = static_cast<std::size_t>(last - first);
    if (n == 0) return;
    if (size_ + n > capacity_) reallocate(std::max(size_ + n, capacity_ * 2));
    std::memcpy(data_ + size_, first, n * sizeof(T));
    size_ += n;
  }
  void assign(const T* first, const T* last) {
    size_ = 0;
    append(first, last);
  }
  void clear() noexcept { size_ = 0; }
  // Gives back what lies past size(), where it lies when the allocator can.
  void shrink_to_fit() {
    if (capacity_ == size_) return;
    if (size_ == 0) {
      std::free(std::exchange(data_, nullptr));
      capacity_ = 0;
      return;
    }
    reallocate(size_);
  }

  // The memory, handed over: the caller frees it (std::free) or adopts it.
  T* release() noexcept {
    size_ = capacity_ = 0;
    return std::exchange(data_, nullptr);
  }
  // A column of `size` values over memory from malloc holding `bytes`
  // (at least size * sizeof(T)), which it frees.
  static Column adopt(void* memory, std::size_t size, std::size_t bytes) noexcept {
    Column c;
    c.data_ = static_cast<T*>(memory);
    c.size_ = size;
    c.capacity_ = bytes / sizeof(T);
    return c;
  }

  std::vector<T> to_vector() const { return std::vector<T>(begin(), end()); }
  friend bool operator==(const Column& a, const Column& b) noexcept {
    return a.size_ == b.size_ &&
           (a.size_ == 0 || std::memcmp(a.data_, b.data_, a.size_ * sizeof(T)) == 0);
  }
  friend bool operator!=(const Column& a, const Column& b) noexcept { return !(a == b); }
  friend bool operator==(const Column& a, const std::vector<T>& b) noexcept {
    return a.size_ == b.size() &&
           (a.size_ == 0 || std::memcmp(a.data_, b.data(), a.size_ * sizeof(T)) == 0);
  }
  friend bool operator==(const std::vector<T>& b, const Column& a) noexcept { return a == b; }

 private:
  void reallocate(std::size_t n) {
    if (n > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
    void* p = std::realloc(data_, n * sizeof(T));
    if (p == nullptr) throw std::bad_alloc();
    data_ = static_cast<T*>(p);
    capacity_ = n;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0, capacity_ = 0;
};

}  // namespace scope_speedscope
