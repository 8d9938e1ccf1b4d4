#include "wmap/text.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace wmap::text {
namespace {

std::vector<uint32_t> Decode(std::string_view s) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < s.size();) out.push_back(DecodeUtf8(s, &i));
  return out;
}

TEST(TextUtf8Test, DecodesUnderGoRules) {
  EXPECT_EQ(Decode("a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"),
            (std::vector<uint32_t>{'a', 0xE9, 0x20AC, 0x1F600}));
  // Overlong forms, surrogates, values above U+10FFFF, stray continuation bytes and truncated
  // sequences decode byte by byte as U+FFFD.
  EXPECT_EQ(Decode("\xc0\xaf"), (std::vector<uint32_t>{0xFFFD, 0xFFFD}));
  EXPECT_EQ(Decode("\xe0\x80\xaf"), (std::vector<uint32_t>{0xFFFD, 0xFFFD, 0xFFFD}));
  EXPECT_EQ(Decode("\xed\xa0\x80"), (std::vector<uint32_t>{0xFFFD, 0xFFFD, 0xFFFD}));
  EXPECT_EQ(Decode("\xf4\x90\x80\x80").size(), 4u);
  EXPECT_EQ(Decode("\x80z"), (std::vector<uint32_t>{0xFFFD, 'z'}));
  EXPECT_EQ(Decode("\xe2\x82"), (std::vector<uint32_t>{0xFFFD, 0xFFFD}));
  EXPECT_TRUE(IsValidUtf8("plain ascii, \xc3\xa9 and \xf0\x9f\x98\x80 over sixteen bytes"));
  EXPECT_FALSE(IsValidUtf8("sixteen ascii bytes then \xed\xa0\x80"));
  EXPECT_EQ(CodePointCount("a\xc3\xa9\x80"), 3u);
  EXPECT_EQ(Utf8SequenceLength("\xf0\x9f\x98\x80", 0), 4u);
  EXPECT_EQ(Utf8SequenceLength("\xf0\x9f\x98", 0), 0u);
}

TEST(TextUtf8Test, EncodesAndReplacesWhatCannotBeEncoded) {
  std::string out;
  for (uint32_t c : {0x41u, 0xE9u, 0x20ACu, 0x1F600u, 0xD800u, 0x110000u}) AppendUtf8(c, &out);
  EXPECT_EQ(out, "A\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xef\xbf\xbd\xef\xbf\xbd");
}

TEST(TextUtf8Test, CutsNeverSplitACharacter) {
  std::string_view s = "a\xe2\x82\xac";
  EXPECT_EQ(Utf8Floor(s, 2), 1u);
  EXPECT_EQ(Utf8Floor(s, 3), 1u);
  EXPECT_EQ(Utf8Floor(s, 1), 1u);
  EXPECT_EQ(Utf8Floor(s, 99), 4u);
  EXPECT_EQ(TrimTrailingInvalidUtf8("ab\xe2\x82"), "ab");
  EXPECT_EQ(TrimTrailingInvalidUtf8("ab\xe2\x82\xac"), "ab\xe2\x82\xac");
  EXPECT_EQ(TrimTrailingInvalidUtf8("ab\x80"), "ab");
}

TEST(TextWidthTest, WideZeroAndNarrowCharacters) {
  EXPECT_EQ(DisplayWidth("abc"), 3u);
  EXPECT_EQ(DisplayWidth("\xe6\x97\xa5\xe6\x9c\xac"), 4u);  // two CJK ideographs
  EXPECT_EQ(DisplayWidth("e\xcc\x81"), 1u);                 // e + combining acute
  EXPECT_EQ(DisplayWidth("\xf0\x9f\x98\x80"), 2u);          // emoji
  EXPECT_EQ(DisplayWidth("\xff"), 1u);
}

TEST(TextBase64Test, EncodesPadded) {
  std::string out;
  for (std::string_view in : {"", "f", "fo", "foo", "foob"}) {
    AppendBase64(in, &out);
    out.push_back('|');
  }
  EXPECT_EQ(out, "|Zg==|Zm8=|Zm9v|Zm9vYg==|");
}

TEST(TextBase64Test, DecodesAsGoDoes) {
  auto decode = [](std::string_view text, bool padded) {
    std::string out;
    size_t bad = 99;
    if (!DecodeBase64(text, padded, &out, &bad)) return "error at " + std::to_string(bad);
    return out;
  };
  EXPECT_EQ(decode("Zm9vYg==", true), "foob");
  EXPECT_EQ(decode("Zm9v\nYg=\r\n=", true), "foob");  // line breaks are skipped anywhere
  EXPECT_EQ(decode("Zm9vYg", true), "error at 6");    // the final group is incomplete
  EXPECT_EQ(decode("Zm9vYg=", true), "error at 7");
  EXPECT_EQ(decode("Zm9vY===", true), "error at 5");
  EXPECT_EQ(decode("Zg==Zg==", true), "error at 4");  // nothing after the padding
  EXPECT_EQ(decode("Zm!v", true), "error at 2");
  EXPECT_EQ(decode("Zm9vYg", false), "foob");
  EXPECT_EQ(decode("Zm9vYg==", false), "error at 6");
  EXPECT_EQ(decode("Zm9vY", false), "error at 4");  // a lone final character
  EXPECT_EQ(decode("", true), "");
}

TEST(TextPointerTest, EscapesAndUnescapesTokens) {
  EXPECT_EQ(PointerToken("a/b~c"), "a~1b~0c");
  EXPECT_EQ(UnescapePointerToken("a~1b~0c"), "a/b~c");
  EXPECT_EQ(UnescapePointerToken("~2~"), "~2~");
  std::string path = "/spec/";
  AppendPointerToken("x/y", &path);
  EXPECT_EQ(path, "/spec/x~1y");
}

TEST(TextExcerptTest, FindsTheLineAndColumn) {
  SourceExcerpt e = ExcerptAt("first\nsecond\r\nthird", 9);
  EXPECT_EQ(e.line, 2);
  EXPECT_EQ(e.line_text, "second");
  EXPECT_EQ(e.column, 3u);
  e = ExcerptAt("one\rtwo", 4);
  EXPECT_EQ(e.line, 2);
  EXPECT_EQ(e.line_text, "two");
  EXPECT_EQ(e.column, 0u);
  e = ExcerptAt("abc\n", 50);  // past the end: after the last line
  EXPECT_EQ(e.line, 1);
  EXPECT_EQ(e.column, 3u);
  e = ExcerptAt("", 0);
  EXPECT_EQ(e.line, 0);
  EXPECT_EQ(e.line_text, "");
}

TEST(TextExcerptTest, LongLinesShowAWindowAroundTheOffset) {
  std::string line(100, 'x');
  line[70] = '^';
  SourceExcerpt e = ExcerptAt(line, 70);
  EXPECT_EQ(e.line_text.size(), 64u);
  EXPECT_EQ(e.column, 48u);
  EXPECT_EQ(e.line_text[e.column], '^');
  // The window's left edge never falls inside a character.
  std::string wide = std::string(21, 'a') + "\xe6\x97\xa5" + std::string(60, 'b');
  e = ExcerptAt(wide, 71);
  EXPECT_TRUE(IsValidUtf8(e.line_text));
}

TEST(TextExcerptTest, LineTextByNumber) {
  EXPECT_EQ(LineText("a\nb\r\nc", 2), "b");
  EXPECT_EQ(LineText("a\nb\r\nc", 3), "c");
  EXPECT_EQ(LineText("a\n", 2), "");
  EXPECT_EQ(LineText("a", 5), "");
}

}  // namespace
}  // namespace wmap::text

namespace wmap::text {
namespace {

TEST(EscapeForTerminalTest, ShowsControlsInsteadOfSendingThem) {
  EXPECT_EQ(EscapeForTerminal("plain name-1 äöü 日本 🙂"),
            "plain name-1 äöü 日本 🙂");
  EXPECT_EQ(EscapeForTerminal("x\x1b]0;pwned\a\x1b[2J"), "x^[]0;pwned^G^[[2J");
  EXPECT_EQ(EscapeForTerminal("a\nb\tc\rd\x7f"), "a^Jb^Ic^Md^?");
  EXPECT_EQ(EscapeForTerminal("a\nb", /*keep_newlines=*/true), "a\nb");
  EXPECT_EQ(EscapeForTerminal(std::string("nul\0x", 5)), "nul^@x");
  EXPECT_EQ(EscapeForTerminal("c1 \xc2\x9b"
                              "31m"),
            "c1 \\u009b31m");  // CSI as one code point
  EXPECT_EQ(EscapeForTerminal("bad \xff byte"), "bad \\xff byte");
  EXPECT_EQ(EscapeForTerminal("real \xef\xbf\xbd kept"), "real \xef\xbf\xbd kept");
}

}  // namespace
}  // namespace wmap::text
