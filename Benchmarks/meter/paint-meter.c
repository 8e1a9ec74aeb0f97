/* paint-meter: keystroke-to-paint, start-to-first-frame and idle meters for any X11 program,
 * measured from outside the process (issue #11), so that the composer and the C references
 * are measured the same way.
 *
 * A "paint" is an X Damage event (DamageReportRawRectangles) on the program's top-level
 * window: the X server reports one when the program's pixels reach the window (cairo's or
 * Mesa's PutImage), i.e. the frame that shows the change. Times are CLOCK_MONOTONIC, µs,
 * stamped when the meter reads the event from the X connection (ppoll on its socket; the
 * meter makes no round trips while it waits, so no event is read late). Keys go out on a
 * second connection: libX11 reads the connection it flushes, and an event read there
 * would carry no read time of its own.
 *
 *   paint-meter keys  (--window ID | --pid PID | --name TITLE) [--keys "a b space …"]
 *                     [--warmup "a Escape"] [--quiet-ms 80] [--max-wait-ms 2000]
 *                     [--settle-max-ms 3000] [--ready-quiet-ms 300] [--ready-timeout-ms 60000]
 *                     [--keys-quiet-ms N] [--no-focus] [--find-timeout-ms 30000]
 *       Focuses the window, waits until it is ready (no damage, and with --pid, almost no
 *       CPU, for --ready-quiet-ms), then for each key: XTest press + release, time to the
 *       first damage on the window ("latency_us"), and on until no damage came for
 *       --quiet-ms ("last_us": the last damage of the burst). The next key is sent only
 *       then, so keys never overlap. A key without damage within --max-wait-ms is "missed"
 *       (latency null). Warm-up keys are sent and reported with "warmup":true. Each key's
 *       "area" is the pixels its damage rectangles cover (summed: overlaps count twice).
 *       --keys-quiet-ms: before the first measured key, no damage (and with --pid, almost no
 *       CPU) for that long (default --quiet-ms). GtkScrolledWindow's overlay scroll indicator
 *       fades out 2–2.5 s after the last scroll, over about 1 s: in a window that scrolled at
 *       start (a long draft), those ~50 frames otherwise land on whichever measured key they
 *       meet, in one program's run and not the other's.
 *       With --pid, a "cpu" line before "done" has the whole process's CPU over the measured keys
 *       (warm-up excluded), every thread (the GL renderer's too): from the first measured
 *       key's press to the process's quiet after the last one (no damage and under 5% of a
 *       CPU for --quiet-ms), as "cpu_ns" (the process's CPU clock, clock_getcpuclockid: every
 *       thread, those that ended in between too, in ns), "live_threads_ns" (the schedstat run
 *       time of the threads alive at the end: a thread that ran and ended in between, such as
 *       a draft save's, is missing there) and "cpu_ticks" (utime + stime of /proc/PID/stat).
 *
 *   paint-meter start [--timeout-ms 60000] [--exit] -- PROGRAM ARG…
 *       Starts PROGRAM (its stdout goes to the meter's stderr) at t0 and reports the time
 *       to the map of its first top-level window (_NET_WM_PID = its pid) and to the first
 *       damage of that window after the map ("first_frame_us"), and its VmRSS then. Then
 *       waits for SIGTERM or SIGINT (or, with --exit, does not wait), sends the program
 *       SIGTERM, waits for it and reports its exit status (SIGKILL after 10 s).
 *
 *   paint-meter idle  (--window ID | --pid PID) [--pid PID] [--ms 10000] [--no-focus]
 *                     [--ready-quiet-ms 300] [--ready-timeout-ms 60000]
 *       Focuses the window, waits until ready, then for --ms: the damage events on the
 *       window, and the process's CPU (utime+stime of /proc/PID/stat, and the exact run time
 *       of every thread, ended ones included, from its CPU clock), its wake-ups (voluntary +
 *       involuntary context switches of the threads alive at the end) and its VmRSS then.
 *
 *   paint-meter paste --pid PID [--window ID] [--quiet-ms 2000] [--settle-max-ms 600000]
 *       Focuses the window, waits until ready, then sends Control+V (whatever owns the
 *       CLIPBOARD serves it) and waits until the process has settled: no damage and under
 *       5% of a CPU for --quiet-ms (a process busy inserting a long text paints nothing for
 *       seconds: its CPU says it is not done). Reports "first_us" and "last_us" (the first
 *       and the last damage after the key), "settled_us" (the start of that quiet span),
 *       "damage_events", the whole process's CPU from the key to the quiet ("cpu_ns", "cpu_ticks",
 *       as for keys) and its VmRSS then.
 *
 *   paint-meter find  (--pid PID | --name TITLE) [--find-timeout-ms 30000]
 *       Prints the window id of the program's viewable top-level once there is one.
 *
 *   paint-meter cpu --pid PID
 *       The process's CPU so far, no display needed: "cpu_ns" (its CPU clock, every thread,
 *       ended ones included, as the other modes count it) and "live_threads_ns" (the
 *       schedstat sum of the threads alive now).
 *
 * Output: one JSON object per line on stdout. Exit status 0; 1 on a measurement error
 * (message on stderr and a {"type":"error"} line); 2 on a usage error.
 *
 * Build: cc -O2 -Wall -Wextra -Werror paint-meter.c -o paint-meter -lX11 -lXdamage -lXtst -lXfixes
 */
#define _GNU_SOURCE
#include <X11/Xatom.h>
#include <X11/XKBlib.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XTest.h>
#include <X11/extensions/Xdamage.h>
#include <X11/extensions/Xfixes.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static Display *dpy;
/* XTest keys are sent on this connection, never on `dpy`: XFlush reads the connection it
 * flushes, so flushing `dpy` would read damage inside the flush, where it gets no read time
 * (stamped with an older read: a negative latency), and dropping what it read could drop
 * the key's own frame when the meter is preempted mid-flush. No event is selected here. */
static Display *keys_dpy;
static Window root;
static int damage_event_base;
static int damage_error_base;
/* When the meter last read from the X connection: the arrival time of what it read. */
static int64_t last_read_us;
static volatile sig_atomic_t stop_signal;
static volatile sig_atomic_t child_exited;

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void json_escape(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            fputc('\\', out);
            fputc(c, out);
        } else if (c < 0x20) {
            fprintf(out, "\\u%04x", c);
        } else {
            fputc(c, out);
        }
    }
    fputc('"', out);
}

static void fail(const char *format, ...)
{
    char message[1024];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    fprintf(stderr, "paint-meter: %s\n", message);
    printf("{\"type\":\"error\",\"message\":");
    json_escape(stdout, message);
    printf("}\n");
    fflush(stdout);
    exit(1);
}

static void usage(void)
{
    fprintf(stderr,
            "usage: paint-meter keys (--window ID | --pid PID | --name TITLE) [--keys \"a b …\"] [--warmup \"…\"]\n"
            "                        [--quiet-ms N] [--max-wait-ms N] [--settle-max-ms N] [--ready-quiet-ms N]\n"
            "                        [--ready-timeout-ms N] [--find-timeout-ms N] [--no-focus]\n"
            "       paint-meter start [--timeout-ms N] [--exit] -- PROGRAM ARG…\n"
            "       paint-meter idle (--window ID | --pid PID) [--pid PID] [--ms N] [--no-focus] [--ready-quiet-ms N]\n"
            "       paint-meter paste --pid PID [--window ID] [--quiet-ms 2000] [--settle-max-ms 600000] [--no-focus]\n"
            "       paint-meter find (--pid PID | --name TITLE) [--find-timeout-ms N]\n"
            "       paint-meter cpu --pid PID\n");
    exit(2);
}

/* Errors on windows that went away (or InputOnly windows, which have no damage) are
 * expected while watching other programs' windows; anything else is fatal. */
static int on_x_error(Display *display, XErrorEvent *error)
{
    if (error->error_code == BadWindow || error->error_code == BadMatch || error->error_code == BadDrawable
        || error->error_code == damage_error_base + BadDamage) {
        return 0;
    }
    char text[256];
    XGetErrorText(display, error->error_code, text, sizeof text);
    fail("X error: %s (request %d.%d)", text, error->request_code, error->minor_code);
    return 0;
}

static void open_display(void)
{
    dpy = XOpenDisplay(NULL);
    if (dpy == NULL) fail("cannot open display %s", getenv("DISPLAY") ? getenv("DISPLAY") : "(DISPLAY unset)");
    root = DefaultRootWindow(dpy);
    XSetErrorHandler(on_x_error);
    if (!XDamageQueryExtension(dpy, &damage_event_base, &damage_error_base)) fail("the X server has no DAMAGE extension");
    int major, minor, ev, err;
    if (!XTestQueryExtension(dpy, &ev, &err, &major, &minor)) fail("the X server has no XTEST extension");
    int fixes_event, fixes_error;
    if (!XFixesQueryExtension(dpy, &fixes_event, &fixes_error)) fail("the X server has no XFIXES extension");
    XSelectInput(dpy, root, SubstructureNotifyMask);
    XSync(dpy, False);
    keys_dpy = XOpenDisplay(NULL);
    if (keys_dpy == NULL) fail("cannot open a second connection to the display for keys");
    last_read_us = now_us();
}

/* The next X event, or 0 once `deadline` (µs, monotonic) passed or a stop signal came.
 * `*at` is when the event was read from the connection. */
static int next_event(XEvent *event, int64_t deadline, int64_t *at)
{
    for (;;) {
        if (XEventsQueued(dpy, QueuedAlready) > 0) {
            XNextEvent(dpy, event);
            *at = last_read_us;
            return 1;
        }
        if (stop_signal) return 0;
        int64_t left = deadline - now_us();
        if (left <= 0) return 0;
        struct pollfd fd = { .fd = ConnectionNumber(dpy), .events = POLLIN, .revents = 0 };
        struct timespec timeout = { .tv_sec = left / 1000000, .tv_nsec = (left % 1000000) * 1000 };
        int ready = ppoll(&fd, 1, &timeout, NULL);
        if (ready < 0 && errno != EINTR) fail("ppoll on the X connection: %s", strerror(errno));
        if (ready > 0) {
            last_read_us = now_us();
            if (XEventsQueued(dpy, QueuedAfterReading) == 0 && (fd.revents & (POLLHUP | POLLERR))) {
                fail("the X connection was closed");
            }
        }
    }
}

static bool is_damage_on(const XEvent *event, Window window)
{
    if (event->type != damage_event_base + XDamageNotify) return false;
    const XDamageNotifyEvent *damage = (const XDamageNotifyEvent *)event;
    return window == None || damage->drawable == window;
}

/* The pixels a damage event's rectangle covers. */
/* With PAINT_METER_RECTS set, each damage rectangle counted goes to stderr as
 * "damage X Y WIDTH HEIGHT" (window coordinates): where a program's frames draw. */
static long long damage_area(const XEvent *event)
{
    const XDamageNotifyEvent *damage = (const XDamageNotifyEvent *)event;
    static int print = -1;
    if (print < 0) print = getenv("PAINT_METER_RECTS") != NULL;
    if (print) fprintf(stderr, "damage %d %d %d %d\n", damage->area.x, damage->area.y, damage->area.width, damage->area.height);
    return (long long)damage->area.width * damage->area.height;
}

static long window_pid(Window window)
{
    static Atom net_wm_pid = None;
    if (net_wm_pid == None) net_wm_pid = XInternAtom(dpy, "_NET_WM_PID", False);
    Atom type;
    int format;
    unsigned long count, after;
    unsigned char *data = NULL;
    long pid = -1;
    if (XGetWindowProperty(dpy, window, net_wm_pid, 0, 1, False, XA_CARDINAL, &type, &format, &count, &after, &data)
            == Success && data != NULL) {
        if (type == XA_CARDINAL && format == 32 && count == 1) pid = (long)*(unsigned long *)data;
        XFree(data);
    }
    return pid;
}

static bool window_has_name(Window window, const char *name)
{
    static Atom net_wm_name = None, utf8 = None;
    if (net_wm_name == None) {
        net_wm_name = XInternAtom(dpy, "_NET_WM_NAME", False);
        utf8 = XInternAtom(dpy, "UTF8_STRING", False);
    }
    Atom type;
    int format;
    unsigned long count, after;
    unsigned char *data = NULL;
    bool match = false;
    if (XGetWindowProperty(dpy, window, net_wm_name, 0, 1024, False, utf8, &type, &format, &count, &after, &data)
            == Success && data != NULL) {
        match = type == utf8 && strcmp((const char *)data, name) == 0;
        XFree(data);
    }
    if (!match) {
        char *legacy = NULL;
        if (XFetchName(dpy, window, &legacy) && legacy != NULL) {
            match = strcmp(legacy, name) == 0;
            XFree(legacy);
        }
    }
    return match;
}

/* A viewable, managed (not override-redirect) child of the root with that pid or title. */
static Window find_toplevel(long pid, const char *name)
{
    Window root_return, parent, *children = NULL, found = None;
    unsigned int count = 0;
    if (!XQueryTree(dpy, root, &root_return, &parent, &children, &count)) return None;
    for (unsigned int i = count; i-- > 0 && found == None;) {
        XWindowAttributes attributes;
        if (!XGetWindowAttributes(dpy, children[i], &attributes)) continue;
        if (attributes.map_state != IsViewable || attributes.override_redirect || attributes.class != InputOutput) continue;
        if ((pid > 0 && window_pid(children[i]) == pid) || (name != NULL && window_has_name(children[i], name))) {
            found = children[i];
        }
    }
    if (children) XFree(children);
    return found;
}

static Window wait_for_toplevel(long pid, const char *name, int timeout_ms)
{
    int64_t deadline = now_us() + (int64_t)timeout_ms * 1000;
    for (;;) {
        Window window = find_toplevel(pid, name);
        if (window != None) return window;
        XEvent event;
        int64_t at;
        /* Any structure change on the root (a map, a property needs no event: poll again at
         * the next map or after 50 ms, whichever comes first). */
        int64_t step = now_us() + 50000;
        if (!next_event(&event, step < deadline ? step : deadline, &at) && now_us() >= deadline) {
            if (pid > 0) fail("no viewable top-level window of pid %ld within %d ms", pid, timeout_ms);
            fail("no viewable top-level window titled '%s' within %d ms", name, timeout_ms);
        }
        if (stop_signal) fail("interrupted");
    }
}

static void focus(Window window)
{
    XRaiseWindow(dpy, window);
    for (int attempt = 0; attempt < 50; attempt++) {
        XSetInputFocus(dpy, window, RevertToParent, CurrentTime);
        XSync(dpy, False);
        last_read_us = now_us();
        Window focused;
        int revert;
        XGetInputFocus(dpy, &focused, &revert);
        if (focused == window) return;
        /* Not viewable yet: wait for the next event or 20 ms. */
        XEvent event;
        int64_t at;
        if (next_event(&event, now_us() + 20000, &at)) XPutBackEvent(dpy, &event);
    }
    fail("could not focus window 0x%lx", (unsigned long)window);
}

/* ---- /proc ---------------------------------------------------------------------------- */

struct task_counters {
    long tid;
    char comm[32];
    long long voluntary;
    long long involuntary;
    long long runtime_ns;
};

struct proc_snapshot {
    long long ticks; /* utime + stime of /proc/PID/stat (all threads) */
    long long process_ns; /* the process's CPU clock: every thread, those that ended too */
    long rss_kb;
    int tasks;
    struct task_counters task[512];
};

static long status_field(const char *path, const char *field)
{
    FILE *file = fopen(path, "r");
    if (file == NULL) return -1;
    char line[256];
    long value = -1;
    size_t length = strlen(field);
    while (fgets(line, sizeof line, file)) {
        if (strncmp(line, field, length) == 0 && line[length] == ':') {
            value = strtol(line + length + 1, NULL, 10);
            break;
        }
    }
    fclose(file);
    return value;
}

static long long stat_ticks(long pid)
{
    char path[64], buffer[4096];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *file = fopen(path, "r");
    if (file == NULL) return -1;
    size_t n = fread(buffer, 1, sizeof buffer - 1, file);
    fclose(file);
    buffer[n] = 0;
    char *p = strrchr(buffer, ')');
    if (p == NULL) return -1;
    /* After ") ": state is field 3; utime and stime are fields 14 and 15. */
    p += 2;
    long long utime = 0, stime = 0;
    int field = 3;
    char *save = NULL;
    for (char *token = strtok_r(p, " ", &save); token; token = strtok_r(NULL, " ", &save), field++) {
        if (field == 14) utime = atoll(token);
        if (field == 15) {
            stime = atoll(token);
            break;
        }
    }
    return utime + stime;
}

/* The whole process's CPU time in ns (clock_getcpuclockid): every live thread's run time
 * and that of every thread that ended, which the kernel adds to the process when a thread
 * exits. /proc/PID/task/TID/schedstat has only the live ones: a thread that runs a block
 * and ends (a draft save) between two snapshots was not counted at all. */
static long long process_cpu_ns(long pid)
{
    clockid_t clock;
    struct timespec ts;
    if (clock_getcpuclockid((pid_t)pid, &clock) != 0 || clock_gettime(clock, &ts) != 0) return -1;
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static bool snapshot(long pid, struct proc_snapshot *snap)
{
    char path[128];
    snap->ticks = stat_ticks(pid);
    if (snap->ticks < 0) return false;
    snap->process_ns = process_cpu_ns(pid);
    if (snap->process_ns < 0) return false;
    snprintf(path, sizeof path, "/proc/%ld/status", pid);
    snap->rss_kb = status_field(path, "VmRSS");
    snap->tasks = 0;
    snprintf(path, sizeof path, "/proc/%ld/task", pid);
    DIR *dir = opendir(path);
    if (dir == NULL) return false;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL && snap->tasks < 512) {
        if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
        struct task_counters *task = &snap->task[snap->tasks];
        task->tid = atol(entry->d_name);
        snprintf(path, sizeof path, "/proc/%ld/task/%ld/status", pid, task->tid);
        task->voluntary = status_field(path, "voluntary_ctxt_switches");
        task->involuntary = status_field(path, "nonvoluntary_ctxt_switches");
        task->runtime_ns = 0;
        task->comm[0] = 0;
        snprintf(path, sizeof path, "/proc/%ld/task/%ld/comm", pid, task->tid);
        FILE *comm = fopen(path, "r");
        if (comm) {
            if (fgets(task->comm, sizeof task->comm, comm)) task->comm[strcspn(task->comm, "\n")] = 0;
            fclose(comm);
        }
        snprintf(path, sizeof path, "/proc/%ld/task/%ld/schedstat", pid, task->tid);
        FILE *file = fopen(path, "r");
        if (file) {
            if (fscanf(file, "%lld", &task->runtime_ns) != 1) task->runtime_ns = 0;
            fclose(file);
        }
        if (task->voluntary >= 0 && task->involuntary >= 0) snap->tasks++;
    }
    closedir(dir);
    return true;
}

/* The threads that woke up between the snapshots, as a JSON object "name/tid": count. */
static void print_wakers(const struct proc_snapshot *before, const struct proc_snapshot *after)
{
    printf("{");
    bool first = true;
    for (int i = 0; i < after->tasks; i++) {
        const struct task_counters *now = &after->task[i];
        long long then = 0;
        for (int j = 0; j < before->tasks; j++) {
            if (before->task[j].tid == now->tid) then = before->task[j].voluntary + before->task[j].involuntary;
        }
        long long delta = now->voluntary + now->involuntary - then;
        if (delta <= 0) continue;
        char label[64];
        snprintf(label, sizeof label, "%s/%ld", now->comm, now->tid);
        printf("%s", first ? "" : ",");
        json_escape(stdout, label);
        printf(":%lld", delta);
        first = false;
    }
    printf("}");
}

/* after − before, per thread (a thread born in between counts from zero). */
static void deltas(const struct proc_snapshot *before, const struct proc_snapshot *after,
                   long long *voluntary, long long *involuntary, long long *runtime_ns)
{
    *voluntary = *involuntary = *runtime_ns = 0;
    for (int i = 0; i < after->tasks; i++) {
        const struct task_counters *now = &after->task[i];
        struct task_counters then = { .tid = now->tid };
        for (int j = 0; j < before->tasks; j++) {
            if (before->task[j].tid == now->tid) then = before->task[j];
        }
        *voluntary += now->voluntary - then.voluntary;
        *involuntary += now->involuntary - then.involuntary;
        *runtime_ns += now->runtime_ns - then.runtime_ns;
    }
}

static long long runtime_ns(long pid)
{
    return process_cpu_ns(pid);
}

/* ---- waiting for quiet ---------------------------------------------------------------- */

/* Reads events until no damage came on `window` for `quiet_ms` (true) or `max_ms` passed
 * (false). With pid > 0, the process must also have used under 5% of a CPU in that quiet
 * span. `*last` is the time of the last damage seen (unchanged if none). */
static bool wait_quiet(Window window, long pid, int quiet_ms, int max_ms, int64_t *last, int *rects)
{
    int64_t start = now_us();
    int64_t deadline = start + (int64_t)max_ms * 1000;
    int64_t quiet_since = start;
    long long cpu_at_quiet = pid > 0 ? runtime_ns(pid) : 0;
    for (;;) {
        int64_t quiet_end = quiet_since + (int64_t)quiet_ms * 1000;
        XEvent event;
        int64_t at;
        if (next_event(&event, quiet_end < deadline ? quiet_end : deadline, &at)) {
            if (is_damage_on(&event, window)) {
                if (last) *last = at;
                if (rects) (*rects)++;
                quiet_since = at;
                if (pid > 0) cpu_at_quiet = runtime_ns(pid);
            }
            continue;
        }
        if (stop_signal) return false;
        int64_t now = now_us();
        if (now >= quiet_end) {
            if (pid <= 0) return true;
            long long cpu = runtime_ns(pid);
            if (cpu >= 0 && (cpu - cpu_at_quiet) * 20 <= (now - quiet_since) * 1000) return true;
            quiet_since = now;
            cpu_at_quiet = cpu;
        }
        if (now >= deadline) return false;
    }
}

/* ---- keys ----------------------------------------------------------------------------- */

struct key {
    char name[64];
    KeyCode code;
    bool shift;
    bool warmup;
};

static int parse_keys(const char *list, bool warmup, struct key *keys, int count, int capacity)
{
    char *copy = strdup(list), *save = NULL;
    for (char *token = strtok_r(copy, " \t\n", &save); token; token = strtok_r(NULL, " \t\n", &save)) {
        if (count >= capacity) fail("too many keys (at most %d)", capacity);
        struct key *key = &keys[count++];
        snprintf(key->name, sizeof key->name, "%s", token);
        key->warmup = warmup;
        KeySym sym = XStringToKeysym(token);
        if (sym == NoSymbol) fail("unknown keysym '%s'", token);
        key->code = XKeysymToKeycode(dpy, sym);
        if (key->code == 0) fail("keysym '%s' is not on the keyboard map", token);
        key->shift = XkbKeycodeToKeysym(dpy, key->code, 0, 0) != sym
                     && XkbKeycodeToKeysym(dpy, key->code, 0, 1) == sym;
    }
    free(copy);
    return count;
}

static void send_key(const struct key *key)
{
    static KeyCode shift = 0;
    if (shift == 0) shift = XKeysymToKeycode(dpy, XK_Shift_L);
    if (key->shift) XTestFakeKeyEvent(keys_dpy, shift, True, CurrentTime);
    XTestFakeKeyEvent(keys_dpy, key->code, True, CurrentTime);
    XTestFakeKeyEvent(keys_dpy, key->code, False, CurrentTime);
    if (key->shift) XTestFakeKeyEvent(keys_dpy, shift, False, CurrentTime);
    XFlush(keys_dpy);
}

struct options {
    Window window;
    long pid;
    const char *name;
    const char *keys;
    const char *warmup;
    int quiet_ms, max_wait_ms, settle_max_ms, ready_quiet_ms, ready_timeout_ms, find_timeout_ms, timeout_ms, ms;
    int keys_quiet_ms; /* 0: quiet_ms */
    bool focus, exit_at_once;
    char **program;
};

static Window target_window(const struct options *o)
{
    if (o->window != None) return o->window;
    if (o->pid <= 0 && o->name == NULL) usage();
    return wait_for_toplevel(o->pid, o->name, o->find_timeout_ms);
}

static void ready(Window window, const struct options *o)
{
    int64_t start = now_us();
    bool quiet = wait_quiet(window, o->pid, o->ready_quiet_ms, o->ready_timeout_ms, NULL, NULL);
    printf("{\"type\":\"ready\",\"window\":%lu,\"quiet\":%s,\"waited_us\":%" PRId64 "}\n",
           (unsigned long)window, quiet ? "true" : "false", now_us() - start);
    fflush(stdout);
}

/* The program's window, its damage reported to the meter, focused (unless --no-focus) and
 * quiet: where keys, pastes and idle measurements start. */
static Window watched_ready_window(const struct options *o)
{
    Window window = target_window(o);
    XDamageCreate(dpy, window, XDamageReportRawRectangles);
    XSync(dpy, False);
    if (o->focus) focus(window);
    ready(window, o);
    return window;
}

static int run_keys(const struct options *o)
{
    static struct key keys[4096];
    int count = 0;
    if (o->warmup) count = parse_keys(o->warmup, true, keys, count, 4096);
    count = parse_keys(o->keys ? o->keys : "a", false, keys, count, 4096);
    Window window = watched_ready_window(o);

    bool quiet_before = true;
    int missed = 0;
    /* The process's CPU over the measured keys (with --pid). */
    static struct proc_snapshot cpu_before, cpu_after;
    bool cpu_started = false;
    int measured = 0;
    for (int i = 0; i < count && !stop_signal; i++) {
        const struct key *key = &keys[i];
        if (!key->warmup && !cpu_started && o->pid > 0) {
            /* The warm-up's own work ends first: it is not the measured keys'. So does a scroll
             * indicator's fade (--keys-quiet-ms). */
            int keys_quiet_ms = o->keys_quiet_ms > 0 ? o->keys_quiet_ms : o->quiet_ms;
            if (i > 0 || o->keys_quiet_ms > 0)
                wait_quiet(window, o->pid, keys_quiet_ms, o->settle_max_ms + 2 * keys_quiet_ms, NULL, NULL);
            cpu_started = snapshot(o->pid, &cpu_before);
        }
        if (!key->warmup) measured++;
        /* Events already on the connection came before this key (a late frame of the last
         * one): read past them, or the first would count as this key's frame, stamped with
         * the time of an older read (a negative latency). */
        XEvent stale;
        while (XEventsQueued(dpy, QueuedAfterReading) > 0) XNextEvent(dpy, &stale);
        int64_t t0 = now_us();
        send_key(key);
        int64_t first = -1, last = -1;
        int rects = 0, frames = 0;
        long long area = 0;
        int64_t deadline = t0 + (int64_t)o->max_wait_ms * 1000;
        XEvent event;
        int64_t at;
        while (first < 0 && next_event(&event, deadline, &at)) {
            if (is_damage_on(&event, window)) {
                first = last = at;
                rects = frames = 1;
                area = damage_area(&event);
            }
        }
        if (first >= 0) {
            /* The rest of the burst: a gap over 4 ms starts another frame. */
            int64_t settle_deadline = t0 + (int64_t)o->settle_max_ms * 1000;
            int64_t quiet_since = last;
            for (;;) {
                int64_t quiet_end = quiet_since + (int64_t)o->quiet_ms * 1000;
                if (!next_event(&event, quiet_end < settle_deadline ? quiet_end : settle_deadline, &at)) break;
                if (!is_damage_on(&event, window)) continue;
                if (at - last > 4000) frames++;
                last = quiet_since = at;
                rects++;
                area += damage_area(&event);
            }
            quiet_before = now_us() - last >= (int64_t)o->quiet_ms * 1000;
        } else {
            missed += key->warmup ? 0 : 1;
            quiet_before = true;
        }
        printf("{\"type\":\"key\",\"i\":%d,\"key\":", i);
        json_escape(stdout, key->name);
        printf(",\"warmup\":%s,\"quiet_before\":%s,", key->warmup ? "true" : "false",
               i == 0 || quiet_before ? "true" : "false");
        if (first >= 0) {
            printf("\"latency_us\":%" PRId64 ",\"last_us\":%" PRId64 ",\"frames\":%d,\"rects\":%d,\"area\":%lld}\n",
                   first - t0, last - t0, frames, rects, area);
        } else {
            printf("\"latency_us\":null,\"last_us\":null,\"frames\":0,\"rects\":0,\"area\":0}\n");
        }
        fflush(stdout);
        if (first >= 0 && !quiet_before) {
            /* Still painting after --settle-max-ms: wait (bounded) for quiet before the next key. */
            quiet_before = wait_quiet(window, -1, o->quiet_ms, o->settle_max_ms, NULL, NULL);
        }
    }
    if (cpu_started && !stop_signal) {
        /* Until the process is quiet: work a key leaves for later (a settle, a save) is its. */
        wait_quiet(window, o->pid, o->quiet_ms, o->settle_max_ms, NULL, NULL);
        if (snapshot(o->pid, &cpu_after)) {
            long long voluntary, involuntary, run_ns;
            deltas(&cpu_before, &cpu_after, &voluntary, &involuntary, &run_ns);
            printf("{\"type\":\"cpu\",\"measured\":%d,\"cpu_ns\":%lld,\"live_threads_ns\":%lld,\"cpu_ticks\":%lld,"
                   "\"wakeups\":%lld}\n",
                   measured, cpu_after.process_ns - cpu_before.process_ns, run_ns, cpu_after.ticks - cpu_before.ticks,
                   voluntary + involuntary);
        }
    }
    printf("{\"type\":\"done\",\"keys\":%d,\"missed\":%d}\n", count, missed);
    fflush(stdout);
    return 0;
}

/* ---- paste ---------------------------------------------------------------------------- */

static int run_paste(const struct options *o)
{
    if (o->pid <= 0) usage();
    Window window = watched_ready_window(o);
    KeyCode control = XKeysymToKeycode(dpy, XK_Control_L), v = XKeysymToKeycode(dpy, XK_v);
    if (control == 0 || v == 0) fail("Control_L or v is not on the keyboard map");
    static struct proc_snapshot before, after;
    XEvent stale;
    while (XEventsQueued(dpy, QueuedAfterReading) > 0) XNextEvent(dpy, &stale);
    if (!snapshot(o->pid, &before)) fail("cannot read /proc/%ld", o->pid);
    int64_t t0 = now_us();
    XTestFakeKeyEvent(keys_dpy, control, True, CurrentTime);
    XTestFakeKeyEvent(keys_dpy, v, True, CurrentTime);
    XTestFakeKeyEvent(keys_dpy, v, False, CurrentTime);
    XTestFakeKeyEvent(keys_dpy, control, False, CurrentTime);
    XFlush(keys_dpy);
    /* The first damage, then on until the process is quiet. */
    int64_t first = -1, last = -1, deadline = t0 + (int64_t)o->settle_max_ms * 1000;
    XEvent event;
    int64_t at;
    while (first < 0 && next_event(&event, deadline, &at)) {
        if (is_damage_on(&event, window)) first = last = at;
    }
    if (first < 0) fail(stop_signal ? "interrupted" : "no paint within %d ms of Control+V", o->settle_max_ms);
    int rects = 1;
    int64_t remaining = (deadline - now_us()) / 1000;
    bool settled = remaining > 0 && wait_quiet(window, o->pid, o->quiet_ms, (int)remaining, &last, &rects);
    int64_t settled_at = now_us() - (int64_t)o->quiet_ms * 1000;
    if (stop_signal) fail("interrupted");
    if (!settled) fail("the process did not settle within %d ms of Control+V", o->settle_max_ms);
    if (!snapshot(o->pid, &after)) fail("the process %ld went away during the paste", o->pid);
    long long voluntary, involuntary, run_ns;
    deltas(&before, &after, &voluntary, &involuntary, &run_ns);
    printf("{\"type\":\"paste\",\"first_us\":%" PRId64 ",\"last_us\":%" PRId64 ",\"settled_us\":%" PRId64
           ",\"damage_events\":%d,\"cpu_ns\":%lld,\"cpu_ticks\":%lld,\"wakeups\":%lld,\"rss_kb\":%ld}\n",
           first - t0, last - t0, (settled_at > last ? settled_at : last) - t0, rects, after.process_ns - before.process_ns,
           after.ticks - before.ticks, voluntary + involuntary, after.rss_kb);
    fflush(stdout);
    return 0;
}

/* ---- idle ----------------------------------------------------------------------------- */

static int run_idle(const struct options *o)
{
    if (o->pid <= 0) usage();
    Window window = watched_ready_window(o);
    static struct proc_snapshot before, after;
    if (!snapshot(o->pid, &before)) fail("cannot read /proc/%ld", o->pid);
    int64_t start = now_us();
    int64_t deadline = start + (int64_t)o->ms * 1000;
    int rects = 0, frames = 0;
    int64_t last = -1;
    XEvent event;
    int64_t at;
    while (next_event(&event, deadline, &at)) {
        if (!is_damage_on(&event, window)) continue;
        if (last < 0 || at - last > 4000) frames++;
        last = at;
        rects++;
    }
    if (stop_signal) fail("interrupted");
    int64_t elapsed = now_us() - start;
    if (!snapshot(o->pid, &after)) fail("the process %ld went away during the idle measurement", o->pid);
    long long voluntary, involuntary, runtime;
    deltas(&before, &after, &voluntary, &involuntary, &runtime);
    long ticks_per_second = sysconf(_SC_CLK_TCK);
    printf("{\"type\":\"idle\",\"pid\":%ld,\"window\":%lu,\"elapsed_us\":%" PRId64 ",\"cpu_ticks\":%lld,"
           "\"cpu_s\":%.3f,\"runtime_ns\":%lld,\"voluntary\":%lld,\"involuntary\":%lld,\"wakeups\":%lld,"
           "\"frames\":%d,\"rects\":%d,\"threads\":%d,\"rss_kb\":%ld,\"wakers\":",
           o->pid, (unsigned long)window, elapsed, after.ticks - before.ticks,
           (double)(after.ticks - before.ticks) / (double)ticks_per_second, after.process_ns - before.process_ns,
           voluntary, involuntary,
           voluntary + involuntary, frames, rects, after.tasks, after.rss_kb);
    print_wakers(&before, &after);
    printf("}\n");
    fflush(stdout);
    return 0;
}

/* ---- start ---------------------------------------------------------------------------- */

struct watched {
    Window window;
    Damage damage;
    bool damaged;
};

static int run_start(const struct options *o)
{
    if (o->program == NULL || o->program[0] == NULL) usage();
    /* Every window created from now on gets a Damage object as soon as the meter reads its
     * CreateNotify: long before the program maps it (GTK creates the surface at realize). */
    static struct watched watched[1024];
    int watched_count = 0;
    XSync(dpy, False);

    int64_t t0 = now_us();
    pid_t pid = fork();
    if (pid < 0) fail("fork: %s", strerror(errno));
    if (pid == 0) {
        dup2(2, 1);
        close(ConnectionNumber(dpy));
        execvp(o->program[0], o->program);
        fprintf(stderr, "paint-meter: cannot run %s: %s\n", o->program[0], strerror(errno));
        _exit(127);
    }
    int64_t deadline = t0 + (int64_t)o->timeout_ms * 1000;
    Window target = None;
    int64_t mapped = -1, frame = -1;
    bool damage_before_map = false;
    XEvent event;
    int64_t at;
    while (frame < 0) {
        if (!next_event(&event, deadline, &at)) {
            kill(pid, SIGKILL);
            waitpid(pid, NULL, 0);
            if (stop_signal) fail("interrupted");
            fail("%s showed no frame within %d ms (window %s)", o->program[0], o->timeout_ms,
                 target == None ? "never mapped" : "mapped");
        }
        if (event.type == CreateNotify && event.xcreatewindow.parent == root && watched_count < 1024
            && !event.xcreatewindow.override_redirect) {
            watched[watched_count].window = event.xcreatewindow.window;
            watched[watched_count].damage = XDamageCreate(dpy, event.xcreatewindow.window, XDamageReportRawRectangles);
            watched[watched_count].damaged = false;
            watched_count++;
            XFlush(dpy);
        } else if (event.type == MapNotify && event.xmap.event == root && target == None
                   && !event.xmap.override_redirect) {
            /* A round trip: what it reads meanwhile is stamped with the time after it (late,
             * never early). */
            bool ours = window_pid(event.xmap.window) == pid;
            last_read_us = now_us();
            if (ours) {
                target = event.xmap.window;
                mapped = at;
                bool known = false;
                for (int i = 0; i < watched_count; i++) {
                    if (watched[i].window == target) {
                        known = true;
                        damage_before_map = watched[i].damaged;
                    }
                }
                if (!known) fail("window 0x%lx was mapped before the meter saw it created", (unsigned long)target);
            }
        } else if (event.type == damage_event_base + XDamageNotify) {
            Window drawable = ((XDamageNotifyEvent *)&event)->drawable;
            if (target != None && drawable == target) frame = at;
            for (int i = 0; i < watched_count && target == None; i++) {
                if (watched[i].window == drawable) watched[i].damaged = true;
            }
        }
        int status;
        if (waitpid(pid, &status, WNOHANG) == pid) {
            fail("%s exited (status %d) before its first frame", o->program[0],
                 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
        }
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
    long rss = status_field(path, "VmRSS");
    printf("{\"type\":\"start\",\"pid\":%ld,\"window\":%lu,\"map_us\":%" PRId64 ",\"first_frame_us\":%" PRId64
           ",\"rss_kb\":%ld,\"damage_before_map\":%s}\n",
           (long)pid, (unsigned long)target, mapped - t0, frame - t0, rss, damage_before_map ? "true" : "false");
    fflush(stdout);
    for (int i = 0; i < watched_count; i++) XDamageDestroy(dpy, watched[i].damage);
    XSync(dpy, False);

    /* Wait for SIGTERM/SIGINT (or the program's own exit), then end the program. */
    if (!o->exit_at_once) {
        sigset_t empty;
        sigemptyset(&empty);
        sigset_t blocked;
        sigemptyset(&blocked);
        sigaddset(&blocked, SIGTERM);
        sigaddset(&blocked, SIGINT);
        sigaddset(&blocked, SIGCHLD);
        sigprocmask(SIG_BLOCK, &blocked, NULL);
        while (!stop_signal && !child_exited) sigsuspend(&empty);
        sigprocmask(SIG_UNBLOCK, &blocked, NULL);
    }
    int status = 0;
    bool ended = waitpid(pid, &status, WNOHANG) == pid;
    if (!ended) {
        kill(pid, SIGTERM);
        for (int i = 0; i < 1000 && !ended; i++) {
            ended = waitpid(pid, &status, WNOHANG) == pid;
            if (!ended) {
                struct timespec step = { 0, 10 * 1000 * 1000 };
                nanosleep(&step, NULL);
            }
        }
        if (!ended) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
        }
    }
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    printf("{\"type\":\"exit\",\"pid\":%ld,\"status\":%d}\n", (long)pid, code);
    fflush(stdout);
    return 0;
}

/* ---- main ----------------------------------------------------------------------------- */

static void on_stop(int number)
{
    stop_signal = number;
}

static void on_child(int number)
{
    (void)number;
    child_exited = 1;
}

static int int_arg(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) usage();
    char *end = NULL;
    long value = strtol(argv[++*i], &end, 0);
    if (end == argv[*i] || *end != 0 || value < 0) usage();
    return (int)value;
}

int main(int argc, char **argv)
{
    if (argc < 2) usage();
    const char *mode = argv[1];
    struct options o = {
        .window = None, .pid = -1, .quiet_ms = 80, .max_wait_ms = 2000, .settle_max_ms = 3000,
        .ready_quiet_ms = 300, .ready_timeout_ms = 60000, .find_timeout_ms = 30000, .timeout_ms = 60000,
        .ms = 10000, .focus = true,
    };
    if (strcmp(mode, "paste") == 0) {
        o.quiet_ms = 2000;
        o.settle_max_ms = 600000;
    }
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            o.program = &argv[i + 1];
            break;
        } else if (strcmp(a, "--window") == 0 && i + 1 < argc) {
            o.window = (Window)strtoul(argv[++i], NULL, 0);
        } else if (strcmp(a, "--pid") == 0) {
            o.pid = int_arg(argc, argv, &i);
        } else if (strcmp(a, "--name") == 0 && i + 1 < argc) {
            o.name = argv[++i];
        } else if (strcmp(a, "--keys") == 0 && i + 1 < argc) {
            o.keys = argv[++i];
        } else if (strcmp(a, "--warmup") == 0 && i + 1 < argc) {
            o.warmup = argv[++i];
        } else if (strcmp(a, "--quiet-ms") == 0) {
            o.quiet_ms = int_arg(argc, argv, &i);
        } else if (strcmp(a, "--max-wait-ms") == 0) {
            o.max_wait_ms = int_arg(argc, argv, &i);
        } else if (strcmp(a, "--settle-max-ms") == 0) {
            o.settle_max_ms = int_arg(argc, argv, &i);
        } else if (strcmp(a, "--keys-quiet-ms") == 0) {
            o.keys_quiet_ms = int_arg(argc, argv, &i);
        } else if (strcmp(a, "--ready-quiet-ms") == 0) {
            o.ready_quiet_ms = int_arg(argc, argv, &i);
        } else if (strcmp(a, "--ready-timeout-ms") == 0) {
            o.ready_timeout_ms = int_arg(argc, argv, &i);
        } else if (strcmp(a, "--find-timeout-ms") == 0) {
            o.find_timeout_ms = int_arg(argc, argv, &i);
        } else if (strcmp(a, "--timeout-ms") == 0) {
            o.timeout_ms = int_arg(argc, argv, &i);
        } else if (strcmp(a, "--ms") == 0) {
            o.ms = int_arg(argc, argv, &i);
        } else if (strcmp(a, "--no-focus") == 0) {
            o.focus = false;
        } else if (strcmp(a, "--exit") == 0) {
            o.exit_at_once = true;
        } else {
            usage();
        }
    }
    struct sigaction stop = { .sa_handler = on_stop }, child = { .sa_handler = on_child };
    sigemptyset(&stop.sa_mask);
    sigemptyset(&child.sa_mask);
    sigaction(SIGTERM, &stop, NULL);
    sigaction(SIGINT, &stop, NULL);
    sigaction(SIGCHLD, &child, NULL);

    if (strcmp(mode, "cpu") == 0) {
        if (o.pid <= 0) usage();
        static struct proc_snapshot now;
        if (!snapshot(o.pid, &now)) fail("cannot read /proc/%ld", o.pid);
        long long live = 0;
        for (int i = 0; i < now.tasks; i++) live += now.task[i].runtime_ns;
        printf("{\"type\":\"cpu\",\"cpu_ns\":%lld,\"live_threads_ns\":%lld,\"threads\":%d}\n", now.process_ns,
               live, now.tasks);
        return 0;
    }
    open_display();
    if (strcmp(mode, "keys") == 0) return run_keys(&o);
    if (strcmp(mode, "idle") == 0) return run_idle(&o);
    if (strcmp(mode, "paste") == 0) return run_paste(&o);
    if (strcmp(mode, "start") == 0) return run_start(&o);
    if (strcmp(mode, "find") == 0) {
        Window window = target_window(&o);
        printf("{\"type\":\"window\",\"window\":%lu}\n", (unsigned long)window);
        return 0;
    }
    usage();
    return 2;
}
