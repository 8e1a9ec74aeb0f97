// Callgrind client requests for the keystroke-cpu benchmark (valgrind's <valgrind/callgrind.h>
// is all macros), and the two variadic GLib calls it needs. Each is a one-line static inline.
// Outside valgrind a client request is a few no-op instructions; without the valgrind
// headers (the `valgrind` Debian package) they compile to nothing, and the benchmark then
// refuses to measure.
#ifndef CCALLGRIND_SHIM_H
#define CCALLGRIND_SHIM_H

#include <glib-object.h>

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define CCALLGRIND_AVAILABLE 1
#endif
#endif

#ifdef CCALLGRIND_AVAILABLE
/// Whether the process runs under valgrind (any tool).
static inline int ccallgrind_running_on_valgrind(void) { return RUNNING_ON_VALGRIND; }
/// Starts instrumenting (with --instr-atstart=no, setup runs uninstrumented and fast).
static inline void ccallgrind_start_instrumentation(void) { CALLGRIND_START_INSTRUMENTATION; }
static inline void ccallgrind_stop_instrumentation(void) { CALLGRIND_STOP_INSTRUMENTATION; }
/// Flips event collection (with --collect-atstart=no, the first call turns it on).
static inline void ccallgrind_toggle_collect(void) { CALLGRIND_TOGGLE_COLLECT; }
static inline void ccallgrind_dump_stats(const char *reason) { CALLGRIND_DUMP_STATS_AT(reason); }
#else
static inline int ccallgrind_running_on_valgrind(void) { return 0; }
static inline void ccallgrind_start_instrumentation(void) {}
static inline void ccallgrind_stop_instrumentation(void) {}
static inline void ccallgrind_toggle_collect(void) {}
static inline void ccallgrind_dump_stats(const char *reason) { (void)reason; }
#endif

/// Emits "commit" on an input method context, as an input method does when it commits
/// text (g_signal_emit_by_name is variadic, which Swift cannot call).
static inline void ccallgrind_emit_commit(gpointer context, const char *text) {
    g_signal_emit_by_name(context, "commit", text);
}

/// Sets a boolean property (g_object_set is variadic): turns the cursor blink off, whose
/// timer would otherwise redraw at its own pace during the measurement.
static inline void ccallgrind_set_boolean(gpointer object, const char *property, gboolean value) {
    g_object_set(object, property, value, NULL);
}

#endif
