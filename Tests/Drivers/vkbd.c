/*
 * vkbd - one persistent Wayland virtual keyboard (zwp_virtual_keyboard_v1) for the
 * end-to-end tests of the Wayland input-method path (WaylandIMSession.swift).
 *
 * Why: wtype makes a new virtual keyboard per call; sway 1.7 then sends the focused app
 * wl_keyboard.leave/enter, GTK answers with text-input disable/enable, and fcitx5
 * (input-method-v2) resets its composition: keys get lost. Destroying a virtual keyboard
 * while fcitx5 re-grabs also crashes sway 1.7 (NULL active keyboard). So: one keyboard,
 * created before the app maps, kept for the whole session.
 *
 * It connects to $WAYLAND_DISPLAY, creates ONE virtual keyboard on the first seat,
 * uploads ONE keymap (rules evdev, model pc105, layout "us" unless VKBD_LAYOUT is set),
 * prints "ready", then reads commands from stdin, one per line. After each command it has
 * round-tripped every request (the compositor processed them) and prints "ok" or
 * "error <why>" on stdout, line-buffered.
 *
 * Commands:
 *   key NAME          press+release an xkb keysym name (k, space, Return, BackSpace,
 *                     Escape, Left, ...), optionally with modifiers: ctrl+space, shift+a,
 *                     alt+x, super+x (modifier keys are real key events + `modifiers`)
 *   press NAME / release NAME    one half of a key (no modifiers)
 *   type TEXT         each ASCII character of TEXT as its own key (' ' = space)
 *   motion_absolute X Y W H   move the pointer to X,Y of a W x H layout (the output's
 *                     pixels when W H is its size)
 *   click [BUTTON]    press+release a pointer button (evdev code, default BTN_LEFT 272)
 *   sleep MS | sync (roundtrip only) | quit (also on EOF: destroys the keyboard, so
 *                     send it only once the app and fcitx5 are gone, see above)
 * Env: VKBD_DELAY_MS pause after each key event, VKBD_HOLD_MS press-to-release (default 0).
 *
 * The pointer (wlr-virtual-pointer-unstable-v1, which sway implements) is made at start-up
 * too, when the compositor offers it: a pointer device added later changes the seat's
 * capabilities under the app. Adding or removing a pointer does not re-enter the keyboard
 * focus (only a keyboard does), so the input method is not disturbed.
 *
 * KWin (5.27) offers neither protocol. There vkbd uses org_kde_kwin_fake_input (version 4:
 * keyboard_key, pointer_motion_absolute, button), which KWin offers to the clients it trusts
 * (KWin started with KWIN_WAYLAND_NO_PERMISSION_CHECKS=1, as the lab's KDE session does).
 * The keys then go through KWin's own keymap (us) and modifier state: the same commands work.
 *
 * The protocol interfaces (virtual-keyboard-unstable-v1 and wlr-virtual-pointer-unstable-v1,
 * as wlroots implements them; KWin's fake-input) are defined below by hand: no protocol XML
 * and no wayland-scanner output needed.
 *
 * Build: cc -O2 -Wall -Wextra -Werror vkbd.c -o vkbd $(pkg-config --cflags --libs wayland-client xkbcommon)
 * Debian: libwayland-dev libxkbcommon-dev pkg-config gcc (build); libwayland-client0 libxkbcommon0 (run).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>
#include <xkbcommon/xkbcommon.h>

/* ---- zwp_virtual_keyboard_manager_v1 / zwp_virtual_keyboard_v1, by hand ---- */

extern const struct wl_interface zwp_virtual_keyboard_v1_interface;

/* Argument types: keymap/key/modifiers/destroy take no objects (NULLs); the manager's
 * create_virtual_keyboard takes a wl_seat and makes a zwp_virtual_keyboard_v1. */
static const struct wl_interface *vk_types[] = {
    NULL, NULL, NULL, NULL,
    &wl_seat_interface, &zwp_virtual_keyboard_v1_interface,
};

static const struct wl_message vk_requests[] = {
    { "keymap", "uhu", vk_types + 0 },      /* format, fd, size */
    { "key", "uuu", vk_types + 0 },         /* time, key (evdev), state */
    { "modifiers", "uuuu", vk_types + 0 },  /* depressed, latched, locked, group */
    { "destroy", "", vk_types + 0 },
};
const struct wl_interface zwp_virtual_keyboard_v1_interface = {
    "zwp_virtual_keyboard_v1", 1, 4, vk_requests, 0, NULL,
};

static const struct wl_message vk_manager_requests[] = {
    { "create_virtual_keyboard", "on", vk_types + 4 },  /* seat, new id */
};
static const struct wl_interface zwp_virtual_keyboard_manager_v1_interface = {
    "zwp_virtual_keyboard_manager_v1", 1, 1, vk_manager_requests, 0, NULL,
};

/* ---- zwlr_virtual_pointer_manager_v1 / zwlr_virtual_pointer_v1 (version 1), by hand ---- */

extern const struct wl_interface zwlr_virtual_pointer_v1_interface;

static const struct wl_interface *vp_types[] = {
    NULL, NULL, NULL, NULL, NULL,
    &wl_seat_interface, &zwlr_virtual_pointer_v1_interface,
};

/* Only the requests used here and those before them (opcodes are indices). */
static const struct wl_message vp_requests[] = {
    { "motion", "uff", vp_types + 0 },                 /* time, dx, dy */
    { "motion_absolute", "uuuuu", vp_types + 0 },      /* time, x, y, x_extent, y_extent */
    { "button", "uuu", vp_types + 0 },                 /* time, button, state */
    { "axis", "uuf", vp_types + 0 },
    { "frame", "", vp_types + 0 },
    { "axis_source", "u", vp_types + 0 },
    { "axis_stop", "uu", vp_types + 0 },
    { "axis_discrete", "uufi", vp_types + 0 },
    { "destroy", "", vp_types + 0 },
};
const struct wl_interface zwlr_virtual_pointer_v1_interface = {
    "zwlr_virtual_pointer_v1", 1, 9, vp_requests, 0, NULL,
};

static const struct wl_message vp_manager_requests[] = {
    { "create_virtual_pointer", "?on", vp_types + 5 },  /* seat (nullable), new id */
    { "destroy", "", vp_types + 0 },
};
static const struct wl_interface zwlr_virtual_pointer_manager_v1_interface = {
    "zwlr_virtual_pointer_manager_v1", 1, 2, vp_manager_requests, 0, NULL,
};

/* ---- org_kde_kwin_fake_input (version 4), by hand ---- */

static const struct wl_interface *fi_types[] = { NULL, NULL, NULL };

static const struct wl_message fi_requests[] = {
    { "authenticate", "ss", fi_types },
    { "pointer_motion", "ff", fi_types },
    { "button", "uu", fi_types },
    { "axis", "uf", fi_types },
    { "touch_down", "2uff", fi_types },
    { "touch_motion", "2uff", fi_types },
    { "touch_up", "2u", fi_types },
    { "touch_cancel", "2", fi_types },
    { "touch_frame", "2", fi_types },
    { "pointer_motion_absolute", "3ff", fi_types },
    { "keyboard_key", "4uu", fi_types },
};
static const struct wl_interface org_kde_kwin_fake_input_interface = {
    "org_kde_kwin_fake_input", 4, 11, fi_requests, 0, NULL,
};

enum { FI_AUTHENTICATE = 0, FI_BUTTON = 2, FI_MOTION_ABSOLUTE = 9, FI_KEYBOARD_KEY = 10 };

enum { VP_MOTION_ABSOLUTE = 1, VP_BUTTON = 2, VP_FRAME = 4, VP_DESTROY = 8, VP_MANAGER_CREATE = 0 };

enum { VK_KEYMAP = 0, VK_KEY = 1, VK_MODIFIERS = 2, VK_DESTROY = 3, VK_MANAGER_CREATE = 0 };

static struct wl_proxy *vk_create(struct wl_proxy *manager, struct wl_seat *seat)
{
    return wl_proxy_marshal_flags(manager, VK_MANAGER_CREATE, &zwp_virtual_keyboard_v1_interface,
                                  wl_proxy_get_version(manager), 0, seat, NULL);
}

static void vk_keymap(struct wl_proxy *kbd, uint32_t format, int32_t fd, uint32_t size)
{
    wl_proxy_marshal_flags(kbd, VK_KEYMAP, NULL, wl_proxy_get_version(kbd), 0, format, fd, size);
}

static void vk_key(struct wl_proxy *kbd, uint32_t time, uint32_t key, uint32_t state)
{
    wl_proxy_marshal_flags(kbd, VK_KEY, NULL, wl_proxy_get_version(kbd), 0, time, key, state);
}

static void vk_modifiers(struct wl_proxy *kbd, uint32_t depressed, uint32_t latched,
                         uint32_t locked, uint32_t group)
{
    wl_proxy_marshal_flags(kbd, VK_MODIFIERS, NULL, wl_proxy_get_version(kbd), 0,
                           depressed, latched, locked, group);
}

static void vk_destroy(struct wl_proxy *kbd)
{
    wl_proxy_marshal_flags(kbd, VK_DESTROY, NULL, wl_proxy_get_version(kbd), WL_MARSHAL_FLAG_DESTROY);
}

static struct wl_proxy *vp_create(struct wl_proxy *manager, struct wl_seat *seat)
{
    return wl_proxy_marshal_flags(manager, VP_MANAGER_CREATE, &zwlr_virtual_pointer_v1_interface,
                                  wl_proxy_get_version(manager), 0, seat, NULL);
}

static void vp_motion_absolute(struct wl_proxy *ptr, uint32_t time, uint32_t x, uint32_t y,
                               uint32_t width, uint32_t height)
{
    wl_proxy_marshal_flags(ptr, VP_MOTION_ABSOLUTE, NULL, wl_proxy_get_version(ptr), 0,
                           time, x, y, width, height);
}

static void vp_button(struct wl_proxy *ptr, uint32_t time, uint32_t button, uint32_t state)
{
    wl_proxy_marshal_flags(ptr, VP_BUTTON, NULL, wl_proxy_get_version(ptr), 0, time, button, state);
}

static void vp_frame(struct wl_proxy *ptr)
{
    wl_proxy_marshal_flags(ptr, VP_FRAME, NULL, wl_proxy_get_version(ptr), 0);
}

static void vp_destroy(struct wl_proxy *ptr)
{
    wl_proxy_marshal_flags(ptr, VP_DESTROY, NULL, wl_proxy_get_version(ptr), WL_MARSHAL_FLAG_DESTROY);
}

static struct wl_display *display;
static struct wl_seat *seat;
static struct wl_proxy *manager;
static struct wl_proxy *kbd;
static struct wl_proxy *pointer_manager;
static struct wl_proxy *ptr;
/* KWin's fake input, when there is no virtual keyboard manager. */
static struct wl_proxy *fake;
static struct xkb_context *ctx;
static struct xkb_keymap *keymap;
static struct xkb_state *state;
static int delay_ms, hold_ms;

static void global(void *data, struct wl_registry *r, uint32_t name,
                   const char *iface, uint32_t version)
{
    (void)data;
    if (!strcmp(iface, wl_seat_interface.name) && !seat)
        seat = wl_registry_bind(r, name, &wl_seat_interface, 1);
    else if (!strcmp(iface, zwp_virtual_keyboard_manager_v1_interface.name))
        manager = wl_registry_bind(r, name, &zwp_virtual_keyboard_manager_v1_interface, 1);
    else if (!strcmp(iface, zwlr_virtual_pointer_manager_v1_interface.name))
        pointer_manager = wl_registry_bind(r, name, &zwlr_virtual_pointer_manager_v1_interface, 1);
    else if (!strcmp(iface, org_kde_kwin_fake_input_interface.name) && version >= 4)
        fake = wl_registry_bind(r, name, &org_kde_kwin_fake_input_interface, 4);
}
static void global_remove(void *data, struct wl_registry *r, uint32_t name)
{
    (void)data;
    (void)r;
    (void)name;
}
static const struct wl_registry_listener reg_listener = { global, global_remove };

static uint32_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint32_t)(ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

static void msleep(int ms)
{
    if (ms > 0) {
        struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
        while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {}
    }
}

static int roundtrip(void)
{
    if (wl_display_roundtrip(display) < 0) {
        fprintf(stderr, "vkbd: lost the Wayland connection\n");
        exit(2);
    }
    return 0;
}

/* Sends the modifier state that the local xkb_state computed. */
static void send_mods(void)
{
    vk_modifiers(kbd,
        xkb_state_serialize_mods(state, XKB_STATE_MODS_DEPRESSED),
        xkb_state_serialize_mods(state, XKB_STATE_MODS_LATCHED),
        xkb_state_serialize_mods(state, XKB_STATE_MODS_LOCKED),
        xkb_state_serialize_layout(state, XKB_STATE_LAYOUT_EFFECTIVE));
}

/* One key (xkb keycode) down or up: key event, then modifiers if they changed. */
static void send_key(xkb_keycode_t code, int down)
{
    if (!kbd) {
        /* fake input: KWin's keyboard; KWin keeps the modifier state. */
        wl_proxy_marshal_flags(fake, FI_KEYBOARD_KEY, NULL, 4, 0, code - 8,
            down ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED);
        xkb_state_update_key(state, code, down ? XKB_KEY_DOWN : XKB_KEY_UP);
        roundtrip();
        msleep(delay_ms);
        return;
    }
    vk_key(kbd, now_ms(), code - 8,
        down ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED);
    enum xkb_state_component changed =
        xkb_state_update_key(state, code, down ? XKB_KEY_DOWN : XKB_KEY_UP);
    if (changed & (XKB_STATE_MODS_EFFECTIVE | XKB_STATE_LAYOUT_EFFECTIVE))
        send_mods();
    roundtrip();
    msleep(delay_ms);
}

/* Finds a keycode whose level 0 or 1 (shift) in layout 0 produces sym. */
static xkb_keycode_t find_key(xkb_keysym_t sym, int *needs_shift)
{
    xkb_keycode_t min = xkb_keymap_min_keycode(keymap), max = xkb_keymap_max_keycode(keymap);
    for (int level = 0; level < 2; level++)
        for (xkb_keycode_t kc = min; kc <= max; kc++) {
            const xkb_keysym_t *syms;
            int n = xkb_keymap_key_get_syms_by_level(keymap, kc, 0, level, &syms);
            if (n == 1 && syms[0] == sym) {
                *needs_shift = level == 1;
                return kc;
            }
        }
    return 0;
}

static xkb_keycode_t key_by_name(const char *name, int *needs_shift)
{
    xkb_keysym_t sym = xkb_keysym_from_name(name, XKB_KEYSYM_NO_FLAGS);
    if (sym == XKB_KEY_NoSymbol)
        sym = xkb_keysym_from_name(name, XKB_KEYSYM_CASE_INSENSITIVE);
    if (sym == XKB_KEY_NoSymbol)
        return 0;
    return find_key(sym, needs_shift);
}

static const char *modifier_key(const char *mod)
{
    if (!strcasecmp(mod, "ctrl") || !strcasecmp(mod, "control")) return "Control_L";
    if (!strcasecmp(mod, "shift")) return "Shift_L";
    if (!strcasecmp(mod, "alt")) return "Alt_L";
    if (!strcasecmp(mod, "super") || !strcasecmp(mod, "logo")) return "Super_L";
    return NULL;
}

/* "ctrl+shift+a": presses the modifiers, taps the key, releases the modifiers. */
static const char *do_combo(char *spec)
{
    xkb_keycode_t mods[8];
    int nmods = 0;
    char *plus;
    while ((plus = strchr(spec, '+')) && plus[1] != '\0') {
        *plus = '\0';
        const char *mk = modifier_key(spec);
        int dummy;
        if (!mk) return "unknown modifier";
        if (nmods == 8) return "too many modifiers";
        mods[nmods] = key_by_name(mk, &dummy);
        if (!mods[nmods]) return "modifier key not in keymap";
        nmods++;
        spec = plus + 1;
    }
    int shift = 0;
    xkb_keycode_t kc = key_by_name(spec, &shift);
    if (!kc) return "unknown key";
    int dummy;
    xkb_keycode_t shiftkc = shift ? key_by_name("Shift_L", &dummy) : 0;
    for (int i = 0; i < nmods; i++) send_key(mods[i], 1);
    if (shiftkc) send_key(shiftkc, 1);
    send_key(kc, 1);
    msleep(hold_ms);
    send_key(kc, 0);
    if (shiftkc) send_key(shiftkc, 0);
    for (int i = nmods - 1; i >= 0; i--) send_key(mods[i], 0);
    return NULL;
}

static const char *do_half(const char *name, int down)
{
    int shift;
    xkb_keycode_t kc = key_by_name(name, &shift);
    if (!kc) return "unknown key";
    send_key(kc, down);
    return NULL;
}

/* "X Y W H": the pointer to X,Y of a W x H layout, one frame. */
static const char *do_motion(const char *arg)
{
    unsigned x, y, width, height;
    if (!ptr && !fake) return "no virtual pointer (the compositor lacks zwlr_virtual_pointer_manager_v1)";
    if (sscanf(arg, "%u %u %u %u", &x, &y, &width, &height) != 4 || !width || !height
        || x >= width || y >= height)
        return "usage: motion_absolute X Y W H (X < W, Y < H)";
    if (!ptr) {
        /* fake input: in the compositor's global coordinates (the one output at 0,0). */
        wl_proxy_marshal_flags(fake, FI_MOTION_ABSOLUTE, NULL, 4, 0,
            wl_fixed_from_int((int)x), wl_fixed_from_int((int)y));
        roundtrip();
        return NULL;
    }
    vp_motion_absolute(ptr, now_ms(), x, y, width, height);
    vp_frame(ptr);
    roundtrip();
    return NULL;
}

/* A button press and release, each in its own frame (BTN_LEFT unless given). */
static const char *do_click(const char *arg)
{
    unsigned button = 272; /* BTN_LEFT */
    if (!ptr && !fake) return "no virtual pointer (the compositor lacks zwlr_virtual_pointer_manager_v1)";
    if (*arg && sscanf(arg, "%u", &button) != 1) return "usage: click [BUTTON]";
    if (!ptr) {
        wl_proxy_marshal_flags(fake, FI_BUTTON, NULL, 4, 0, button, WL_POINTER_BUTTON_STATE_PRESSED);
        roundtrip();
        msleep(hold_ms);
        wl_proxy_marshal_flags(fake, FI_BUTTON, NULL, 4, 0, button, WL_POINTER_BUTTON_STATE_RELEASED);
        roundtrip();
        return NULL;
    }
    vp_button(ptr, now_ms(), button, WL_POINTER_BUTTON_STATE_PRESSED);
    vp_frame(ptr);
    roundtrip();
    msleep(hold_ms);
    vp_button(ptr, now_ms(), button, WL_POINTER_BUTTON_STATE_RELEASED);
    vp_frame(ptr);
    roundtrip();
    return NULL;
}

static const char *do_type(const char *text)
{
    for (const char *p = text; *p; p++) {
        char name[2] = { *p, 0 };
        const char *err;
        if (*p == ' ') {
            char sp[] = "space";
            err = do_combo(sp);
        } else {
            if ((unsigned char)*p >= 0x80) return "only ASCII in type";
            /* keysym for an ASCII char is its code point */
            int shift;
            xkb_keycode_t kc = find_key((xkb_keysym_t)(unsigned char)*p, &shift);
            if (!kc) return "character not in keymap";
            char buf[64];
            xkb_keysym_get_name((xkb_keysym_t)(unsigned char)*p, buf, sizeof buf);
            err = do_combo(buf);
            (void)name;
        }
        if (err) return err;
    }
    return NULL;
}

int main(void)
{
    const char *e;
    if ((e = getenv("VKBD_DELAY_MS"))) delay_ms = atoi(e);
    if ((e = getenv("VKBD_HOLD_MS"))) hold_ms = atoi(e);
    setvbuf(stdout, NULL, _IOLBF, 0);

    display = wl_display_connect(NULL);
    if (!display) { fprintf(stderr, "vkbd: cannot connect to Wayland\n"); return 1; }
    struct wl_registry *reg = wl_display_get_registry(display);
    wl_registry_add_listener(reg, &reg_listener, NULL);
    roundtrip();
    if (!seat || (!manager && !fake)) {
        fprintf(stderr, "vkbd: compositor lacks wl_seat, or both zwp_virtual_keyboard_manager_v1 and "
                        "org_kde_kwin_fake_input (version 4, offered to trusted clients)\n");
        return 1;
    }

    ctx = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
    struct xkb_rule_names names = { .rules = "evdev", .model = "pc105",
        .layout = getenv("VKBD_LAYOUT") ? getenv("VKBD_LAYOUT") : "us" };
    keymap = xkb_keymap_new_from_names(ctx, &names, XKB_KEYMAP_COMPILE_NO_FLAGS);
    if (!keymap) { fprintf(stderr, "vkbd: cannot compile keymap\n"); return 1; }
    state = xkb_state_new(keymap);
    char *km = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1);
    size_t size = strlen(km) + 1;
    int fd = memfd_create("vkbd-keymap", MFD_CLOEXEC);
    if (fd < 0 || write(fd, km, size) != (ssize_t)size) { perror("vkbd: keymap"); return 1; }

    if (manager) {
        kbd = vk_create(manager, seat);
        vk_keymap(kbd, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, fd, size);
        if (pointer_manager)
            ptr = vp_create(pointer_manager, seat);
    } else {
        wl_proxy_marshal_flags(fake, FI_AUTHENTICATE, NULL, 4, 0, "vkbd", "the IME lab's virtual keyboard");
    }
    roundtrip();
    close(fd);
    free(km);
    printf("ready\n");

    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, stdin)) >= 0) {
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = '\0';
        char *arg = strchr(line, ' ');
        if (arg) *arg++ = '\0'; else arg = line + n;
        const char *err = NULL;
        if (!strcmp(line, "key")) err = do_combo(arg);
        else if (!strcmp(line, "press")) err = do_half(arg, 1);
        else if (!strcmp(line, "release")) err = do_half(arg, 0);
        else if (!strcmp(line, "type")) err = do_type(arg);
        else if (!strcmp(line, "motion_absolute")) err = do_motion(arg);
        else if (!strcmp(line, "click")) err = do_click(arg);
        else if (!strcmp(line, "sleep")) msleep(atoi(arg));
        else if (!strcmp(line, "sync")) roundtrip();
        else if (!strcmp(line, "quit")) break;
        else if (line[0] == '\0' || line[0] == '#') { continue; }
        else err = "unknown command";
        if (err) printf("error %s\n", err); else printf("ok\n");
    }
    if (ptr) vp_destroy(ptr);
    if (kbd) vk_destroy(kbd);
    wl_display_roundtrip(display);
    wl_display_disconnect(display);
    return 0;
}
