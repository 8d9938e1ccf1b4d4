#include "wmap/value.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <thread>
#include <vector>

namespace wmap {
namespace {

TEST(ValueTest, DefaultIsNull) {
  Value v;
  EXPECT_TRUE(v.is_null());
  EXPECT_EQ(v.type(), Type::kNull);
  EXPECT_FALSE(v.truthy());
}

TEST(ValueTest, Scalars) {
  EXPECT_TRUE(Value::Bool(true).as_bool());
  EXPECT_FALSE(Value::Bool(false).truthy());
  EXPECT_TRUE(Value::Bool(false).is_bool());
  EXPECT_EQ(Value::Int(-5).as_int(), -5);
  EXPECT_TRUE(Value::Int(3).is_integer());
  EXPECT_DOUBLE_EQ(Value::Int(3).as_double(), 3.0);
  EXPECT_FALSE(Value::Double(3.0).is_integer());
  EXPECT_DOUBLE_EQ(Value::Double(2.5).as_double(), 2.5);
  EXPECT_EQ(Value::Int(0).type(), Type::kNumber);
}

TEST(ValueTest, NumberPrefersExactInt) {
  EXPECT_TRUE(Value::Number(4.0).is_integer());
  EXPECT_EQ(Value::Number(4.0).as_int(), 4);
  EXPECT_FALSE(Value::Number(4.5).is_integer());
  EXPECT_FALSE(Value::Number(1e19).is_integer());
  EXPECT_TRUE(Value::Number(-9223372036854775808.0).is_integer());
  EXPECT_FALSE(Value::Number(9223372036854775808.0).is_integer());
  EXPECT_FALSE(Value::Number(std::nan("")).is_integer());
  Value neg_zero = Value::Number(-0.0);
  EXPECT_FALSE(neg_zero.is_integer());
  EXPECT_TRUE(std::signbit(neg_zero.as_double()));
}

TEST(ValueTest, StringsInlineAndHeap) {
  for (size_t n : {0, 1, 13, 14, 15, 16, 100, 10000}) {
    std::string s(n, 'x');
    if (n > 0) s[n - 1] = 'y';
    Value v = Value::String(s);
    EXPECT_TRUE(v.is_string());
    EXPECT_EQ(v.as_string(), s) << n;
    Value copy = v;
    EXPECT_EQ(copy.as_string(), s);
    Value moved = std::move(copy);
    EXPECT_EQ(moved.as_string(), s);
  }
  std::string with_nul("a\0b", 3);
  EXPECT_EQ(Value::String(with_nul).as_string(), with_nul);
  EXPECT_EQ(Value::String(std::string(40, 'z')).as_string(), std::string(40, 'z'));
}

TEST(ValueTest, TypeNames) {
  EXPECT_EQ(TypeName(Type::kNull), "null");
  EXPECT_EQ(TypeName(Type::kBoolean), "boolean");
  EXPECT_EQ(TypeName(Type::kNumber), "number");
  EXPECT_EQ(TypeName(Type::kString), "string");
  EXPECT_EQ(TypeName(Type::kArray), "array");
  EXPECT_EQ(TypeName(Type::kObject), "object");
}

TEST(ValueTest, CopyShareAndUseCount) {
  Value a = Value::Array({Value::Int(1), Value::Int(2)});
  EXPECT_EQ(a.use_count(), 1u);
  Value b = a;
  EXPECT_EQ(a.use_count(), 2u);
  EXPECT_TRUE(a.identical(b));
  {
    Value c = b;
    EXPECT_EQ(a.use_count(), 3u);
  }
  EXPECT_EQ(a.use_count(), 2u);
  b = Value();
  EXPECT_EQ(a.use_count(), 1u);
  EXPECT_EQ(Value::Int(1).use_count(), 1u);
}

TEST(ValueTest, ArrayCopyOnWrite) {
  Value a = Value::Array({Value::Int(1)});
  Value b = a;
  b.push_back(Value::Int(2));
  EXPECT_EQ(a.size(), 1u);
  EXPECT_EQ(b.size(), 2u);
  EXPECT_FALSE(a.identical(b));
  EXPECT_EQ(a.use_count(), 1u);
  EXPECT_EQ(b.use_count(), 1u);
  // A unique array is mutated in place.
  const Value* before = b.items().data();
  b.mutable_items()[0] = Value::Int(7);
  EXPECT_EQ(b.items().data(), before);
  EXPECT_EQ(b[0].as_int(), 7);
  EXPECT_EQ(a[0].as_int(), 1);
}

TEST(ValueTest, MutatorsConvertNonContainers) {
  Value v;
  v.push_back(Value::Int(1));
  EXPECT_TRUE(v.is_array());
  EXPECT_EQ(v.size(), 1u);
  Value o = Value::Int(3);
  o.set("a", Value::Int(1));
  EXPECT_TRUE(o.is_object());
  Value n;
  EXPECT_EQ(n.find_mutable("a"), nullptr);
  EXPECT_FALSE(n.erase("a"));
  EXPECT_EQ(n.find("a"), nullptr);
  EXPECT_TRUE(n.is_null());
}

TEST(ValueTest, ObjectInsertionOrderAndReplace) {
  Value o = Value::Object({{"b", Value::Int(1)}, {"a", Value::Int(2)}, {"b", Value::Int(3)}});
  ASSERT_EQ(o.size(), 2u);
  EXPECT_EQ(o.members()[0].key.as_string(), "b");
  EXPECT_EQ(o.members()[0].value.as_int(), 3);
  EXPECT_EQ(o.members()[1].key.as_string(), "a");
  auto sorted = o.sorted_members();
  EXPECT_EQ(sorted[0]->key.as_string(), "a");
  EXPECT_EQ(sorted[1]->key.as_string(), "b");
  o.set("c", Value::Int(4));
  EXPECT_EQ(o.members()[2].key.as_string(), "c");
  o.set(Value::String("a"), Value::Int(5));
  EXPECT_EQ(o.find("a")->as_int(), 5);
  EXPECT_EQ(o.size(), 3u);
}

TEST(ValueTest, ObjectCopyOnWrite) {
  Value a = Value::Object({{"k", Value::Int(1)}});
  Value b = a;
  b.set("k", Value::Int(2));
  EXPECT_EQ(a.find("k")->as_int(), 1);
  EXPECT_EQ(b.find("k")->as_int(), 2);
  Value c = a;
  *c.find_mutable("k") = Value::String("x");
  EXPECT_EQ(a.find("k")->as_int(), 1);
  EXPECT_EQ(c.find("k")->as_string(), "x");
  Value d = a;
  EXPECT_TRUE(d.erase("k"));
  EXPECT_EQ(d.size(), 0u);
  EXPECT_EQ(a.size(), 1u);
  // Erasing an absent key does not copy.
  Value e = a;
  EXPECT_FALSE(e.erase("nope"));
  EXPECT_TRUE(e.identical(a));
}

TEST(ValueTest, SortedMembersCompareBytesUnsigned) {
  Value o =
      Value::Object({{"\xc3\xa9", Value::Int(1)}, {"z", Value::Int(2)}, {"Z", Value::Int(3)}});
  auto sorted = o.sorted_members();
  EXPECT_EQ(sorted[0]->key.as_string(), "Z");
  EXPECT_EQ(sorted[1]->key.as_string(), "z");
  EXPECT_EQ(sorted[2]->key.as_string(), "\xc3\xa9");
}

TEST(ValueTest, LargeObjectIndexedLookup) {
  constexpr int kCount = 100000;
  Value o = Value::EmptyObject();
  for (int i = 0; i < kCount; ++i) o.set("key" + std::to_string(i), Value::Int(i));
  ASSERT_EQ(o.size(), static_cast<size_t>(kCount));
  for (int i = 0; i < kCount; i += 997) {
    const Value* v = o.find("key" + std::to_string(i));
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(v->as_int(), i);
  }
  EXPECT_EQ(o.find("key-1"), nullptr);
  o.set("key5", Value::Int(-5));
  EXPECT_EQ(o.size(), static_cast<size_t>(kCount));
  EXPECT_EQ(o.find("key5")->as_int(), -5);
  // Erase keeps the index consistent and the remaining order.
  EXPECT_TRUE(o.erase("key0"));
  EXPECT_EQ(o.find("key0"), nullptr);
  EXPECT_EQ(o.find("key1")->as_int(), 1);
  EXPECT_EQ(o.members()[0].key.as_string(), "key1");
  // Shrinking below the index threshold still finds everything.
  Value small = Value::EmptyObject();
  for (int i = 0; i < 20; ++i) small.set(std::to_string(i), Value::Int(i));
  for (int i = 0; i < 18; ++i) EXPECT_TRUE(small.erase(std::to_string(i)));
  EXPECT_EQ(small.find("18")->as_int(), 18);
  EXPECT_EQ(small.find("19")->as_int(), 19);
  EXPECT_EQ(small.find("3"), nullptr);
  // A copied large object finds keys too.
  Value copy = o;
  copy.set("extra", Value::Null());
  EXPECT_NE(copy.find("key99999"), nullptr);
  EXPECT_EQ(o.find("extra"), nullptr);
}

TEST(ValueTest, DeepNestingDestroysWithoutOverflow) {
  Value v;
  for (int i = 0; i < 1000000; ++i) {
    Value outer = Value::EmptyArray(1);
    outer.push_back(std::move(v));
    v = std::move(outer);
  }
  Value o;
  for (int i = 0; i < 300000; ++i) {
    Value outer = Value::EmptyObject(1);
    outer.set("a", std::move(o));
    o = std::move(outer);
  }
  v = Value();
  o = Value();
  EXPECT_TRUE(v.is_null());
}

TEST(ValueTest, SharingAcrossThreads) {
  Value shared = Value::Array({Value::String(std::string(50, 'q')), Value::Int(1)});
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([shared] {
      for (int i = 0; i < 10000; ++i) {
        Value copy = shared;
        copy.push_back(Value::Int(i));
        ASSERT_EQ(copy.size(), 3u);
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(shared.size(), 2u);
  EXPECT_EQ(shared.use_count(), 1u);
}

TEST(ValueTest, NodesFreedOnAnotherThreadAndAfterThreadExit) {
  // Nodes built on a worker thread are released here after the worker (and its caches) ended,
  // and nodes built here are released on a worker.
  std::vector<Value> built;
  std::thread producer([&built] {
    for (int i = 0; i < 5000; ++i) {
      Value o = Value::Object({{"name", Value::String("object number " + std::to_string(i))}});
      o.set("items", Value::Array({Value::Int(i), Value::String(std::string(20 + i % 50, 'x'))}));
      built.push_back(std::move(o));
    }
  });
  producer.join();
  ASSERT_EQ(built.size(), 5000u);
  EXPECT_EQ(built[4999].find("name")->as_string(), "object number 4999");
  std::vector<Value> mine;
  for (int i = 0; i < 5000; ++i)
    mine.push_back(Value::Array({Value::String(std::string(30, 'y'))}));
  std::thread consumer([moved = std::move(mine)]() mutable { moved.clear(); });
  consumer.join();
  built.clear();
  // The allocator still works on this thread afterwards.
  Value again = Value::Array({Value::String(std::string(40, 'z'))});
  EXPECT_EQ(again[0].as_string().size(), 40u);
}

TEST(ValueTest, IdenticalAndCopiesOfScalars) {
  EXPECT_TRUE(Value::Int(3).identical(Value::Int(3)));
  EXPECT_FALSE(Value::Int(3).identical(Value::Double(3.0)));
  EXPECT_TRUE(Value::String("abc").identical(Value::String("abc")));
  Value long_a = Value::String(std::string(20, 'a'));
  Value long_b = Value::String(std::string(20, 'a'));
  EXPECT_FALSE(long_a.identical(long_b));  // distinct nodes
  EXPECT_TRUE(long_a == long_b);
  Value self = long_a;
  Value& alias = self;
  self = alias;  // self-assignment keeps the value
  EXPECT_EQ(self.as_string(), std::string(20, 'a'));
  self = std::move(alias);
  EXPECT_EQ(self.as_string(), std::string(20, 'a'));
}

int Cmp(const Value& a, const Value& b) { return Compare(a, b); }

TEST(CompareTest, TypeOrder) {
  std::vector<Value> ordered = {Value(),
                                Value::Bool(false),
                                Value::Bool(true),
                                Value::Int(-100),
                                Value::Double(0.5),
                                Value::Int(1),
                                Value::String(""),
                                Value::String("a"),
                                Value::Array(),
                                Value::EmptyObject()};
  for (size_t i = 0; i < ordered.size(); ++i) {
    for (size_t j = 0; j < ordered.size(); ++j) {
      int want = i < j ? -1 : (i == j ? 0 : 1);
      EXPECT_EQ(Cmp(ordered[i], ordered[j]), want) << i << " vs " << j;
    }
  }
}

TEST(CompareTest, NumbersIntAndDouble) {
  EXPECT_EQ(Cmp(Value::Int(1), Value::Double(1.0)), 0);
  EXPECT_TRUE(Value::Int(1) == Value::Double(1.0));
  EXPECT_EQ(Cmp(Value::Int(1), Value::Double(1.5)), -1);
  EXPECT_EQ(Cmp(Value::Double(1.5), Value::Int(1)), 1);
  EXPECT_EQ(Cmp(Value::Int(-2), Value::Double(-1.5)), -1);
  EXPECT_EQ(Cmp(Value::Int(-1), Value::Double(-1.5)), 1);
  // 2^53 + 1 is not representable as a double; the comparison stays exact.
  EXPECT_EQ(Cmp(Value::Int(9007199254740993), Value::Double(9007199254740992.0)), 1);
  EXPECT_EQ(Cmp(Value::Double(9007199254740992.0), Value::Int(9007199254740993)), -1);
  EXPECT_EQ(Cmp(Value::Int(std::numeric_limits<int64_t>::max()), Value::Double(1e19)), -1);
  EXPECT_EQ(Cmp(Value::Int(std::numeric_limits<int64_t>::min()), Value::Double(-1e19)), 1);
  double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(Cmp(Value::Int(5), Value::Double(inf)), -1);
  EXPECT_EQ(Cmp(Value::Int(5), Value::Double(-inf)), 1);
  EXPECT_EQ(Cmp(Value::Double(-0.0), Value::Int(0)), 0);
}

TEST(CompareTest, NanSortsBelowNumbers) {
  Value nan = Value::Double(std::nan(""));
  EXPECT_EQ(Cmp(nan, Value::Int(-5)), -1);
  EXPECT_EQ(Cmp(Value::Int(-5), nan), 1);
  EXPECT_EQ(Cmp(nan, Value::Double(-1e300)), -1);
  EXPECT_EQ(Cmp(Value::Double(-1e300), nan), 1);
  EXPECT_EQ(Cmp(nan, nan), -1);
  EXPECT_FALSE(nan == nan);
  EXPECT_EQ(Cmp(nan, Value::String("")), -1);
}

TEST(CompareTest, StringsByBytes) {
  EXPECT_EQ(Cmp(Value::String("a"), Value::String("b")), -1);
  EXPECT_EQ(Cmp(Value::String("ab"), Value::String("a")), 1);
  EXPECT_EQ(Cmp(Value::String("\xc3\xa9"), Value::String("z")), 1);
  EXPECT_EQ(Cmp(Value::String(std::string(30, 'a')), Value::String(std::string(30, 'a'))), 0);
}

TEST(CompareTest, Arrays) {
  EXPECT_EQ(Cmp(Value::Array({Value::Int(1)}), Value::Array({Value::Int(1), Value::Int(0)})), -1);
  EXPECT_EQ(Cmp(Value::Array({Value::Int(2)}), Value::Array({Value::Int(1), Value::Int(0)})), 1);
  EXPECT_EQ(Cmp(Value::Array({Value::Int(2)}), Value::Array({Value::Double(2.0)})), 0);
}

TEST(CompareTest, ObjectsKeysFirstThenValues) {
  // jq: {"a":2} < {"b":1} because the key list ["a"] < ["b"].
  Value a2 = Value::Object({{"a", Value::Int(2)}});
  Value b1 = Value::Object({{"b", Value::Int(1)}});
  EXPECT_EQ(Cmp(a2, b1), -1);
  // Fewer keys, as a prefix, sorts first: ["a"] < ["a","b"].
  Value ab = Value::Object({{"b", Value::Int(0)}, {"a", Value::Int(0)}});
  EXPECT_EQ(Cmp(a2, ab), -1);
  // Same keys: values in sorted key order.
  Value x = Value::Object({{"b", Value::Int(1)}, {"a", Value::Int(2)}});
  Value y = Value::Object({{"a", Value::Int(2)}, {"b", Value::Int(0)}});
  EXPECT_EQ(Cmp(x, y), 1);
  Value z = Value::Object({{"a", Value::Int(2)}, {"b", Value::Double(1.0)}});
  EXPECT_EQ(Cmp(x, z), 0);
  EXPECT_TRUE(x == z);
}

}  // namespace
}  // namespace wmap
