// What the shared libwmap exports: every declaration between WMAP_PUBLIC_BEGIN and
// WMAP_PUBLIC_END (each public header wraps its namespace in them). Everything else is compiled
// with hidden visibility, so private classes never become part of the library's ABI.
#ifndef WMAP_EXPORT_H_
#define WMAP_EXPORT_H_

#if defined(__GNUC__) || defined(__clang__)
#define WMAP_PUBLIC_BEGIN _Pragma("GCC visibility push(default)")
#define WMAP_PUBLIC_END _Pragma("GCC visibility pop")
#else
#define WMAP_PUBLIC_BEGIN
#define WMAP_PUBLIC_END
#endif

#endif  // WMAP_EXPORT_H_
