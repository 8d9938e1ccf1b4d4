#include "cli/text_buffer.h"

#include <gtest/gtest.h>

#include <string>

#include <unistd.h>

#include "golden_support.h"

namespace wmap::cli {
namespace {

TEST(TextBufferTest, AppendEraseAndClear) {
  TextBuffer b;
  EXPECT_TRUE(b.empty());
  b.Append("hello, ");
  b.Append("world");
  EXPECT_EQ(b.view(), "hello, world");
  b.EraseFront(7);
  EXPECT_EQ(b.view(), "world");
  b.Append(std::string(3 << 20, 'x'));  // grows past the first mapping
  EXPECT_EQ(b.size(), 5u + (3u << 20));
  EXPECT_EQ(b.view().substr(0, 6), "worldx");
  b.Clear();
  EXPECT_TRUE(b.empty());
  b.Append("again");
  EXPECT_EQ(b.view(), "again");
}

TEST(TextBufferTest, DiscardGivesBackWholePagesOnly) {
  TextBuffer b;
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  b.Append(std::string(10 * page, 'a'));
  b.Discard(3 * page + 5);  // rounded down to three pages
  EXPECT_EQ(b.discarded(), 3 * page);
  EXPECT_EQ(b.size(), 10 * page);
  EXPECT_EQ(b.data()[3 * page - 1], '\0');
  EXPECT_EQ(b.data()[3 * page], 'a');
  b.Discard(page);  // never moves back
  EXPECT_EQ(b.discarded(), 3 * page);
  b.EraseFront(9 * page);
  EXPECT_EQ(b.discarded(), 0u);
  EXPECT_EQ(b.view(), std::string(page, 'a'));
}

TEST(TextBufferTest, ReadsFilesAndPipes) {
  golden::TempFile file("file contents\n");
  TextBuffer b;
  ASSERT_TRUE(b.AppendAllFromFd(file.fd()));
  EXPECT_EQ(b.view(), "file contents\n");

  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ASSERT_EQ(::write(fds[1], "abcdef", 6), 6);
  TextBuffer p;
  EXPECT_EQ(p.AppendFromFd(fds[0], 4), 4);
  EXPECT_EQ(p.view(), "abcd");
  ::close(fds[1]);
  ASSERT_TRUE(p.AppendAllFromFd(fds[0]));
  EXPECT_EQ(p.view(), "abcdef");
  EXPECT_EQ(p.AppendFromFd(fds[0], 4), 0);
  ::close(fds[0]);
  EXPECT_EQ(p.AppendFromFd(fds[0], 4), -1);  // closed descriptor: an error, not a crash
}

}  // namespace
}  // namespace wmap::cli
