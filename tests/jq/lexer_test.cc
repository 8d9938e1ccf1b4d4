#include "jq/lexer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace wmap::jq {
namespace {

// All tokens of `src` up to and including the first EOF or lexical error.
std::vector<Token> Lex(std::string_view src) {
  Lexer lexer(src);
  std::vector<Token> out;
  for (;;) {
    out.push_back(lexer.Next());
    const TokenKind k = out.back().kind;
    if (k == TokenKind::kEOF || k == TokenKind::kInvalid || k == TokenKind::kInvalidEscape ||
        k == TokenKind::kUnterminatedString || k == TokenKind::kStringStart) {
      return out;
    }
  }
}

std::vector<std::string> Texts(std::string_view src) {
  std::vector<std::string> out;
  for (const Token& t : Lex(src)) out.emplace_back(t.text);
  return out;
}

using Texts_t = std::vector<std::string>;

TEST(LexerTest, SplitsOperatorsGreedily) {
  EXPECT_EQ(Texts(".a|=.b//=1?//$x"), (Texts_t{".a", "|=", ".b", "//=", "1", "?//", "$x", ""}));
  EXPECT_EQ(Texts("a==b!=c<=d>=e<f>g"),
            (Texts_t{"a", "==", "b", "!=", "c", "<=", "d", ">=", "e", "<", "f", ">", "g", ""}));
  EXPECT_EQ(Texts("+= -= *= /= %= = // / ?/"),
            (Texts_t{"+=", "-=", "*=", "/=", "%=", "=", "//", "/", "?", "/", ""}));
  EXPECT_EQ(Texts(".. . .[ ..a"), (Texts_t{"..", ".", ".", "[", "..", "a", ""}));
}

TEST(LexerTest, ClassifiesTokens) {
  const auto tokens = Lex("if foo mod::fn $v $m::v .key @base64 \"s\" 12 and or reduce");
  const std::vector<TokenKind> kinds = {TokenKind::kIf,
                                        TokenKind::kIdent,
                                        TokenKind::kModuleIdent,
                                        TokenKind::kVariable,
                                        TokenKind::kModuleVariable,
                                        TokenKind::kField,
                                        TokenKind::kFormat,
                                        TokenKind::kString,
                                        TokenKind::kNumber,
                                        TokenKind::kAnd,
                                        TokenKind::kOr,
                                        TokenKind::kReduce,
                                        TokenKind::kEOF};
  ASSERT_EQ(tokens.size(), kinds.size());
  for (size_t i = 0; i < kinds.size(); ++i) EXPECT_EQ(tokens[i].kind, kinds[i]) << i;
  EXPECT_EQ(tokens[1].value, "foo");
  EXPECT_EQ(tokens[2].value, "mod::fn");
  EXPECT_EQ(tokens[3].value, "v");
  EXPECT_EQ(tokens[4].value, "m::v");
  EXPECT_EQ(tokens[5].value, "key");
  EXPECT_EQ(tokens[6].value, "@base64");
  EXPECT_EQ(tokens[7].value, "s");
}

TEST(LexerTest, KeywordsAfterDotAreFields) {
  const auto tokens = Lex(".if .and .end");
  ASSERT_EQ(tokens.size(), 4u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(tokens[i].kind, TokenKind::kField);
  EXPECT_EQ(tokens[1].value, "and");
}

TEST(LexerTest, ModuleSeparatorNeedsIdentifierAfter) {
  EXPECT_EQ(Texts("a::b a:: b"), (Texts_t{"a::b", "a", ":", ":", "b", ""}));
}

TEST(LexerTest, Numbers) {
  EXPECT_EQ(Texts("1 1.5 .5 1. 1e3 1E+3 1e-9 01000"),
            (Texts_t{"1", "1.5", ".5", "1.", "1e3", "1E+3", "1e-9", "01000", ""}));
  // Malformed numbers are single invalid tokens, as in gojq.
  for (const auto& [src, text] :
       std::vector<std::pair<std::string, std::string>>{{"0..[empty]", "0.."},
                                                        {"0then", "0t"},
                                                        {"1e", "1e"},
                                                        {"1e+", "1e+"},
                                                        {"1.5e3e", "1.5e3e"},
                                                        {"1.2.3", "1.2."},
                                                        {"0x10", "0x"}}) {
    const auto tokens = Lex(src);
    EXPECT_EQ(tokens.back().kind, TokenKind::kInvalid) << src;
    EXPECT_EQ(tokens.back().text, text) << src;
  }
}

TEST(LexerTest, CommentsRunToEndOfLine) {
  EXPECT_EQ(Texts(". # comment\n1"), (Texts_t{".", "1", ""}));
  EXPECT_EQ(Texts("# only"), (Texts_t{""}));
  EXPECT_EQ(Texts("\"#no\" # yes"), (Texts_t{"\"#no\"", ""}));
}

TEST(LexerTest, BackslashContinuesComment) {
  // An odd number of backslashes before the line end continues the comment.
  EXPECT_EQ(Texts("1 # a \\\n 2\n3"), (Texts_t{"1", "3", ""}));
  EXPECT_EQ(Texts("1 # a \\\\\n2"), (Texts_t{"1", "2", ""}));
  EXPECT_EQ(Texts("1 # a \\\\\\\n 2\n3"), (Texts_t{"1", "3", ""}));
  // "\r\n" is one line end; a lone "\r" ends a line too.
  EXPECT_EQ(Texts("1, # \\\r\ncomment\\\\\r\n3"), (Texts_t{"1", ",", "3", ""}));
  EXPECT_EQ(Texts("1, # \\\rcomment\\\\\r3"), (Texts_t{"1", ",", "3", ""}));
  EXPECT_EQ(Texts("1 # \r2"), (Texts_t{"1", "2", ""}));
}

TEST(LexerTest, DecodesStrings) {
  const auto tokens = Lex(R"("a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude04")");
  ASSERT_EQ(tokens[0].kind, TokenKind::kString);
  EXPECT_EQ(tokens[0].value, "a\"\\/\b\f\n\r\t\xC3\xA9\xF0\x9F\x98\x84");
}

TEST(LexerTest, LoneSurrogatesAndInvalidUtf8BecomeReplacementCharacters) {
  EXPECT_EQ(Lex(R"("\ud83d")")[0].value, "\xEF\xBF\xBD");
  EXPECT_EQ(Lex(R"("\ude04x")")[0].value, "\xEF\xBF\xBDx");
  EXPECT_EQ(Lex(R"("\ud83d\u0041")")[0].value,
            "\xEF\xBF\xBD"
            "A");
  EXPECT_EQ(Lex("\"a\xFF\xC3\"")[0].value, "a\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(Lex("\"tab\there\"")[0].value, "tab\there");
}

TEST(LexerTest, InvalidEscapes) {
  for (const auto& [src, text, offset] : std::vector<std::tuple<std::string, std::string, size_t>>{
           {R"("\x")", "\\x", 1},
           {R"("\u")", "\\u", 1},
           {R"("\uAA\uAA")", "\\uAA", 1},
           {R"("\ufffg")", "\\ufff", 1},
           {R"("0\u0000\u000/0")", "\\u000", 8},
           {R"("\u\(")", "\\u", 1}}) {
    const auto tokens = Lex(src);
    ASSERT_EQ(tokens.back().kind, TokenKind::kInvalidEscape) << src;
    EXPECT_EQ(tokens.back().error_text, text) << src;
    EXPECT_EQ(tokens.back().error_offset, offset) << src;
  }
}

TEST(LexerTest, UnterminatedStrings) {
  for (std::string src : {"\"abc", "\"\\", "\"\\\"", ". + \"foo"}) {
    const auto tokens = Lex(src);
    EXPECT_EQ(tokens.back().kind, TokenKind::kUnterminatedString) << src;
    EXPECT_EQ(tokens.back().error_offset, src.size()) << src;
  }
}

TEST(LexerTest, InterpolationIsLexedInParts) {
  const std::string src = R"q("a\(1)b\(2)")q";
  Lexer lexer(src);
  Token t = lexer.Next();
  ASSERT_EQ(t.kind, TokenKind::kStringStart);
  EXPECT_EQ(t.value, "a");
  EXPECT_EQ(lexer.Next().text, "1");
  EXPECT_EQ(lexer.Next().text, ")");
  t = lexer.NextStringPart();
  ASSERT_EQ(t.kind, TokenKind::kStringPart);
  EXPECT_EQ(t.value, "b");
  EXPECT_FALSE(t.string_ends);
  EXPECT_EQ(lexer.Next().text, "2");
  EXPECT_EQ(lexer.Next().text, ")");
  t = lexer.NextStringPart();
  ASSERT_EQ(t.kind, TokenKind::kStringPart);
  EXPECT_EQ(t.value, "");
  EXPECT_TRUE(t.string_ends);
  EXPECT_EQ(lexer.Next().kind, TokenKind::kEOF);
}

TEST(LexerTest, StringPartAtEndOfInputIsEof) {
  const std::string src = R"q("\(1))q";
  Lexer lexer(src);
  EXPECT_EQ(lexer.Next().kind, TokenKind::kStringStart);
  EXPECT_EQ(lexer.Next().kind, TokenKind::kNumber);
  EXPECT_EQ(lexer.Next().text, ")");
  EXPECT_EQ(lexer.NextStringPart().kind, TokenKind::kEOF);
}

TEST(LexerTest, StringStartQuotesThePreviousTokenInErrors) {
  // gojq quotes the last token text it saw when the parser rejects an interpolated string.
  const std::string src = R"q(1 "a\(1)")q";
  Lexer lexer(src);
  lexer.Next();
  const Token t = lexer.Next();
  ASSERT_EQ(t.kind, TokenKind::kStringStart);
  EXPECT_EQ(t.error_text, "1");
  EXPECT_EQ(t.error_offset, 2u);
}

TEST(LexerTest, SingleCharactersAndNonAscii) {
  const auto tokens = Lex("& \\ $ @ \xE2\x98\x86 \xFF");
  ASSERT_EQ(tokens.size(), 7u);
  EXPECT_TRUE(tokens[0].is('&'));
  EXPECT_TRUE(tokens[1].is('\\'));
  EXPECT_TRUE(tokens[2].is('$'));
  EXPECT_TRUE(tokens[3].is('@'));
  EXPECT_EQ(tokens[4].kind, TokenKind::kPunct);
  EXPECT_EQ(tokens[4].text, "\xE2\x98\x86");
  EXPECT_EQ(tokens[5].text, "\xFF");
  EXPECT_EQ(tokens[5].error_text, "\xEF\xBF\xBD");
}

TEST(LexerTest, OffsetsAreByteOffsets) {
  const auto tokens = Lex("  .a | \"x\"");
  EXPECT_EQ(tokens[0].offset, 2u);
  EXPECT_EQ(tokens[0].end, 4u);
  EXPECT_EQ(tokens[1].offset, 5u);
  EXPECT_EQ(tokens[2].offset, 7u);
  EXPECT_EQ(tokens[3].offset, 10u);
}

}  // namespace
}  // namespace wmap::jq
