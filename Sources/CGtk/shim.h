// C helpers for what Swift cannot import from GTK/GLib directly: type-checking cast
// macros, G_TYPE_FROM_INSTANCE, variadic g_object_get, and struct field reads.
// Everything here is a one-line static inline; the logic lives in Swift.
#ifndef CGTK_SHIM_H
#define CGTK_SHIM_H

#include <gtk/gtk.h>
// libadwaita 1.2 (Debian 12): the application, its style manager (the system's dark and
// high-contrast styles, from the Settings portal or GSettings) and toasts. In this module,
// not one of its own: two system modules that both include GTK's headers each get their
// own copy of GTK's declarations, and Swift then failed to find GTK's constants in files
// that imported only one of them.
#include <adwaita.h>
#include <glib-unix.h>
#include <libintl.h>
// malloc_trim: memory freed by reading the data or saving a long draft goes back (FreedMemory).
#include <malloc.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

/// The runtime type name of any GObject instance (e.g. "GdkX11Display").
static inline const char *cgtk_type_name_of(gpointer instance) {
    return G_OBJECT_TYPE_NAME(instance);
}

/// The runtime GType of any GTypeInstance (G_TYPE_FROM_INSTANCE is a macro).
static inline GType cgtk_type_of(gpointer instance) { return G_TYPE_FROM_INSTANCE(instance); }
// An int-sized property (int, gboolean, enum, flags) of `object` (g_object_get is variadic).
static inline int cgtk_object_get_int(gpointer object, const char *name) { int v = 0; g_object_get(object, name, &v, NULL); return v; }

/// g_log at CRITICAL level (g_critical is a variadic macro): for testing the harness.
static inline void cgtk_log_critical(const char *domain, const char *message) {
    g_log(domain, G_LOG_LEVEL_CRITICAL, "%s", message);
}

/// Whether `instance` is of `type` or a subtype (G_TYPE_CHECK_INSTANCE_TYPE is a macro).
static inline gboolean cgtk_is_a(gpointer instance, GType type) {
    return instance != NULL && G_TYPE_CHECK_INSTANCE_TYPE(instance, type);
}

/// The "gtk-im-module" setting; caller frees. NULL when unset.
static inline char *cgtk_settings_im_module(void) {
    char *value = NULL;
    GtkSettings *settings = gtk_settings_get_default();
    if (settings != NULL) g_object_get(settings, "gtk-im-module", &value, NULL);
    return value;
}

/// Pango attribute accessors: PangoAttrInt/PangoAttrColor are C "subclasses" of PangoAttribute.
static inline PangoAttrType cgtk_attr_type(PangoAttribute *attr) { return attr->klass->type; }
static inline int cgtk_attr_int_value(PangoAttribute *attr) { return ((PangoAttrInt *)attr)->value; }

/// GdkModifierType masks as plain unsigned ints (Swift imports the enum awkwardly).
static inline guint cgtk_shift_mask(void) { return GDK_SHIFT_MASK; }
static inline guint cgtk_control_mask(void) { return GDK_CONTROL_MASK; }
static inline guint cgtk_alt_mask(void) { return GDK_ALT_MASK; }

/// Styles the overflow tag: a text colour and a translucent background that read on light
/// and dark themes. The background is a band over the text past the limit, seen without
/// telling colours apart, and the counter and the hint say it in words. No underline: GTK
/// 4.8's GL renderer draws an error underline as a repeat node per line, which made every
/// key over the limit cost 1.5x the CPU of the same key without it (a single underline
/// 1.25x, the band 1.1x; a plain C GtkTextView, Benchmarks/findings.md). A single
/// underline would also read as text still being composed.
static inline void cgtk_style_overflow_tag(GtkTextTag *tag, const char *foreground, const char *background) {
    g_object_set(tag, "foreground", foreground, "background", background, NULL);
}

/// The invisible-control mark, in a text tag and in a label's attributes alike: Pango draws
/// the default-ignorable characters (U+202E, U+200B, U+2066…) as boxes with their names or
/// code points (`show-spaces`: IGNORABLES), and a translucent amber background with 1 px of
/// letter spacing on either side makes a coloured sliver of the few it still draws with no
/// width (tag characters, U+2064, U+206A–206F). Amber at that alpha reads on light and dark
/// themes, and the C0/C1 controls Pango already boxes get the same background.
#define CGTK_CONTROL_MARK_RGBA "rgba(229,165,10,0.35)"
#define CGTK_CONTROL_MARK_SPACING (2 * PANGO_SCALE)
static inline void cgtk_style_control_tag(GtkTextTag *tag) {
    g_object_set(tag, "show-spaces", PANGO_SHOW_IGNORABLES, "background", CGTK_CONTROL_MARK_RGBA,
                 "letter-spacing", CGTK_CONTROL_MARK_SPACING, NULL);
}

/// A text tag's "show-spaces" (g_object_get is variadic): for tests.
static inline guint cgtk_text_tag_show_spaces(GtkTextTag *tag) {
    PangoShowFlags flags = PANGO_SHOW_NONE;
    g_object_get(tag, "show-spaces", &flags, NULL);
    return (guint)flags;
}

/// The same mark on UTF-8 bytes `start..<end` of a label's attribute list.
static inline void cgtk_attr_list_mark_control(PangoAttrList *list, guint start, guint end) {
    PangoAttribute *attributes[] = {
        pango_attr_show_new(PANGO_SHOW_IGNORABLES),
        pango_attr_background_new(229 * 257, 165 * 257, 10 * 257),
        pango_attr_background_alpha_new((guint16)(0.35 * 65535)),
        pango_attr_letter_spacing_new(CGTK_CONTROL_MARK_SPACING),
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(attributes); i++) {
        attributes[i]->start_index = start;
        attributes[i]->end_index = end;
        pango_attr_list_insert(list, attributes[i]);
    }
}

/// The X11 window id of a realized toplevel, or 0 (not X11, not realized): tests aim key
/// presses at exactly this window, not at whatever window has the same title.
static inline unsigned long cgtk_x11_window_id(GtkWidget *window) {
#ifdef GDK_WINDOWING_X11
    GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(window));
    if (surface != NULL && GDK_IS_X11_SURFACE(surface)) return gdk_x11_surface_get_xid(surface);
#endif
    return 0;
}

/// Styles a mention/channel/shortcode highlight: its colour, semi-bold.
static inline void cgtk_style_highlight_tag(GtkTextTag *tag, const char *foreground) {
    g_object_set(tag, "foreground", foreground, "weight", PANGO_WEIGHT_SEMIBOLD, NULL);
}

/// GtkTextView's "move-cursor" keybinding signal (what the arrow keys emit), so a toolbar
/// button moves the caret exactly like a key: by display line keeping the horizontal
/// position, or by cursor position (grapheme). g_signal_emit_by_name is variadic.
static inline void cgtk_text_view_move_cursor(GtkTextView *view, GtkMovementStep step, int count, gboolean extend) {
    g_signal_emit_by_name(view, "move-cursor", step, count, extend);
}

/// Emits an adjustment's "value-changed" without changing its value: a GtkTextView then
/// lays out the lines its current height shows (gtk_text_view_value_changed validates
/// them). g_signal_emit_by_name is variadic.
static inline void cgtk_adjustment_emit_value_changed(GtkAdjustment *adjustment) {
    g_signal_emit_by_name(adjustment, "value-changed");
}

/// A boolean property of a GDBusProxy's cache; -1 when unknown.
static inline int cgtk_dbus_proxy_bool(GDBusProxy *proxy, const char *property) {
    GVariant *value = g_dbus_proxy_get_cached_property(proxy, property);
    if (value == NULL) return -1;
    int result = g_variant_is_of_type(value, G_VARIANT_TYPE_BOOLEAN) ? g_variant_get_boolean(value) : -1;
    g_variant_unref(value);
    return result;
}

/// The accessible name of a widget whose content does not say it (gtk_accessible_update_property
/// is variadic: Swift cannot call it).
static inline void cgtk_accessible_set_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

/// Its accessible description (what a screen reader says after the name and role), or none
/// (NULL).
static inline void cgtk_accessible_set_description(GtkWidget *widget, const char *description) {
    if (description != NULL)
        gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
    else
        gtk_accessible_reset_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
}

/// Whether what the widget holds is invalid (AT-SPI's "invalid-entry"): text over the limit.
static inline void cgtk_accessible_set_invalid(GtkWidget *widget, gboolean invalid) {
    gtk_accessible_update_state(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_STATE_INVALID,
                                invalid ? GTK_ACCESSIBLE_INVALID_TRUE : GTK_ACCESSIBLE_INVALID_FALSE, -1);
}

/// The descendant that is active while `widget` keeps the focus (the selected suggestion
/// while the input has it), or none (NULL).
static inline void cgtk_accessible_set_active_descendant(GtkWidget *widget, GtkWidget *descendant) {
    if (descendant != NULL)
        gtk_accessible_update_relation(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_RELATION_ACTIVE_DESCENDANT, descendant, -1);
    else
        gtk_accessible_reset_relation(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_RELATION_ACTIVE_DESCENDANT);
}

/// Leaves a widget out of the accessible tree (GTK_ACCESSIBLE_STATE_HIDDEN): for a part that
/// only repeats its parent, such as the range inside a scroll bar.
static inline void cgtk_accessible_set_hidden(GtkWidget *widget, gboolean hidden) {
    gtk_accessible_update_state(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_STATE_HIDDEN, hidden, -1);
}

/// The "checked" state of a toggle: GTK 4.8's GtkToggleButton reports only "pressed".
static inline void cgtk_accessible_set_checked(GtkWidget *widget, gboolean checked) {
    gtk_accessible_update_state(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_STATE_CHECKED,
                                checked ? GTK_ACCESSIBLE_TRISTATE_TRUE : GTK_ACCESSIBLE_TRISTATE_FALSE, -1);
}

/// Says that `widget` controls `controlled` (the input and its completion list).
static inline void cgtk_accessible_set_controls(GtkWidget *widget, GtkWidget *controlled) {
    gtk_accessible_update_relation(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_RELATION_CONTROLS, controlled, NULL, -1);
}

/// A new widget of `type` with an accessible role other than its class's (the role is a
/// construct property: it cannot change once the widget exists).
static inline GtkWidget *cgtk_widget_new_with_role(GType type, GtkAccessibleRole role) {
    return GTK_WIDGET(g_object_new(type, "accessible-role", role, NULL));
}

/// A toggle button whose on/off state a screen reader can tell. GTK 4.8 has no toggle-button
/// role (4.10 added one and gives it to GtkToggleButton): its toggle buttons reach AT-SPI as
/// push buttons with a "pressed" state, which screen readers do not read on a push button,
/// and no role of 4.8 maps to AT-SPI's toggle button. With the switch role, 4.8's AT-SPI
/// backend says check box, and its "checked" state (kept by the caller) is read as on/off.
static inline GtkWidget *cgtk_toggle_button_new_accessible(void) {
#if GTK_CHECK_VERSION(4, 10, 0)
    return gtk_toggle_button_new();
#else
    return cgtk_widget_new_with_role(GTK_TYPE_TOGGLE_BUTTON, GTK_ACCESSIBLE_ROLE_SWITCH);
#endif
}

#endif
