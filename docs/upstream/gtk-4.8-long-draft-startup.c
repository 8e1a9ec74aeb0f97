/* Why a composer holding a long draft stays busy for many seconds after it starts, without
 * any of our code: a chat panel's input bar (a GtkTextView in a GtkScrolledWindow at the
 * bottom of a window, beside a button) given a 1 MB draft (13,157 paragraphs).
 *
 *   cc -O2 -o long-draft gtk-4.8-long-draft-startup.c $(pkg-config --cflags --libs gtk4)
 *   DRAFT=draft.txt ./long-draft MODE
 *
 * MODE is a sum of:
 *    1  the scrolled window propagates the text view's natural height;
 *    2  its vertical policy is EXTERNAL until the input is fitted;
 *    4  the input is fitted (min and max content height 108 px, policy AUTOMATIC) when the
 *       text view is mapped;
 *    8  fitted before the window is shown;
 *   64  fitted as the composer's InputSizer does: in the frame clock's layout phase, after
 *       GTK allocated, whenever the input's size changed (it also asks where the end and
 *       the first 7 display lines are, and scrolls the caret on screen);
 *  128  ... without the scroll;  1024  ... without changing the content heights;
 * 2048  the content heights set only when they change, max before min (no -1 step);
 * 4096  the first layout-phase fit deferred to an idle after the frame.
 *
 * Debian 12 (GTK 4.8.3), Xvfb, 2 cores under load, pango_layout_set_width counted with a
 * perf uprobe (GtkTextLayout calls it once per paragraph it lays out) over 15-20 s, and
 * for some the time until the window is quiet (no damage, no CPU for 500 ms:
 * Benchmarks/meter/paint-meter.c idle), 2026-11-27:
 *
 *   MODE                      paragraphs laid out     quiet after
 *   0                         13,164 (1x)             7.3 s
 *   4, 6, 8                   13,164 (1x)             6.0-6.2 s
 *   8+64+2048                 13,164 (1x)
 *   64+128+1024               13,164 (1x)
 *   1                         22,368-80,021 (2-6x)    25.8 s
 *   3                         39,355 (3x)
 *   64, 64+128, 64+2048       31,975-39,206 (2.4-3x)
 *   64+4096                   54,507 (4x)
 *
 * Each extra pass is made in GtkTextView's snapshot, not in its validation idle (perf
 * stacks): GTK lays out every paragraph it has not validated yet, so the first frames take
 * seconds each and the window answers nothing meanwhile. Two things cause it: propagating
 * the natural height (1), and changing the input's height once the window was shown while
 * most of the text is not validated yet (64, also from an idle: 4096). The same height set
 * before the window is shown costs nothing (8, and 8+64+2048, where the later fits find
 * nothing to change), and so does a change of a few pixels (8+64+2048 with the later fit
 * 3 px taller; 80 -> 108 px too). The composer stopped propagating (4e4430b) and gives a
 * long draft's input about its final height before the window is shown (d49e021): one
 * layout per paragraph, as here in mode 0. docs/benchmarks.md, "Where the work goes".
 */
#include <gtk/gtk.h>
#include <stdlib.h>

static int mode;
static GtkWidget *scroller;
static int fitted = -1;
static void fit(void) {
    if (mode & 2048) {
        if (fitted == 108) return;
        fitted = 108;
        gtk_scrolled_window_set_max_content_height(GTK_SCROLLED_WINDOW(scroller), 108);
        gtk_scrolled_window_set_min_content_height(GTK_SCROLLED_WINDOW(scroller), 108);
        gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
        return;
    }
    gtk_scrolled_window_set_min_content_height(GTK_SCROLLED_WINDOW(scroller), -1);
    gtk_scrolled_window_set_max_content_height(GTK_SCROLLED_WINDOW(scroller), 108);
    gtk_scrolled_window_set_min_content_height(GTK_SCROLLED_WINDOW(scroller), 108);
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
}
static GtkWidget *gview;
static int last_w = -1, last_h = -1;
static void composer_fit(void) {
    GtkTextBuffer *b = gtk_text_view_get_buffer(GTK_TEXT_VIEW(gview));
    GtkTextIter it; GdkRectangle r;
    gtk_text_buffer_get_end_iter(b, &it);
    gtk_text_view_get_iter_location(GTK_TEXT_VIEW(gview), &it, &r);
    gtk_text_buffer_get_start_iter(b, &it);
    for (int i = 0; i < 7; i++) {
        gtk_text_view_get_iter_location(GTK_TEXT_VIEW(gview), &it, &r);
        if (!gtk_text_view_forward_display_line(GTK_TEXT_VIEW(gview), &it)) break;
    }
    if (!(mode & 1024)) fit();
    if (!(mode & 128)) gtk_text_view_scroll_mark_onscreen(GTK_TEXT_VIEW(gview), gtk_text_buffer_get_insert(b));
}
static void laid_out(GdkFrameClock *c, gpointer d) {
    (void)c; (void)d;
    int w = gtk_widget_get_width(gview), h = gtk_widget_get_height(scroller);
    if (w > 0 && (w != last_w || h != last_h)) {
        int first = last_w < 0;
        last_w = w; last_h = h;
        if (first && (mode & 4096)) g_idle_add_full(G_PRIORITY_DEFAULT, (GSourceFunc)(void (*)(void))composer_fit, NULL, NULL);
        else composer_fit();
    }
}
static void realized(GtkWidget *window, gpointer d) {
    (void)d;
    if (mode & 64) g_signal_connect_after(gdk_surface_get_frame_clock(gtk_native_get_surface(GTK_NATIVE(window))), "layout", G_CALLBACK(laid_out), NULL);
}
static void mapped(GtkWidget *w, gpointer d) { (void)w; (void)d; if (mode & 4) fit(); }
static void activate(GtkApplication *app, gpointer data) {
    (void)data;
    GtkWidget *window = gtk_application_window_new(app);
    gtk_window_set_default_size(GTK_WINDOW(window), 480, 600);
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
    GtkWidget *list = gtk_scrolled_window_new();
    gtk_widget_set_vexpand(list, TRUE);
    gtk_box_append(GTK_BOX(box), list);
    GtkWidget *bar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    GtkWidget *view = gtk_text_view_new();
    gview = view;
    gtk_text_view_set_wrap_mode(GTK_TEXT_VIEW(view), GTK_WRAP_WORD_CHAR);
    gtk_text_view_set_top_margin(GTK_TEXT_VIEW(view), 6);
    gtk_text_view_set_bottom_margin(GTK_TEXT_VIEW(view), 6);
    gtk_text_view_set_left_margin(GTK_TEXT_VIEW(view), 8);
    gtk_text_view_set_right_margin(GTK_TEXT_VIEW(view), 8);
    GtkTextBuffer *buffer = gtk_text_view_get_buffer(GTK_TEXT_VIEW(view));
    char *contents = NULL; gsize length = 0;
    if (g_getenv("DRAFT") == NULL || !g_file_get_contents(g_getenv("DRAFT"), &contents, &length, NULL)) {
        g_printerr("long-draft: set DRAFT to a readable UTF-8 file\n");
        return;
    }
    gtk_text_buffer_set_text(buffer, contents, (int)length);
    g_free(contents);
    GtkTextIter end; gtk_text_buffer_get_end_iter(buffer, &end); gtk_text_buffer_place_cursor(buffer, &end);
    scroller = gtk_scrolled_window_new();
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroller), GTK_POLICY_NEVER, (mode & 2) ? GTK_POLICY_EXTERNAL : GTK_POLICY_AUTOMATIC);
    if (mode & 1) gtk_scrolled_window_set_propagate_natural_height(GTK_SCROLLED_WINDOW(scroller), TRUE);
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroller), view);
    gtk_widget_set_hexpand(scroller, TRUE);
    gtk_widget_set_valign(scroller, GTK_ALIGN_END);
    gtk_box_append(GTK_BOX(bar), scroller);
    gtk_box_append(GTK_BOX(bar), gtk_button_new_with_label("Send"));
    gtk_box_append(GTK_BOX(box), bar);
    gtk_window_set_child(GTK_WINDOW(window), box);
    if (mode & 8) fit();
    g_signal_connect(view, "map", G_CALLBACK(mapped), NULL);
    g_signal_connect_after(window, "realize", G_CALLBACK(realized), NULL);
    gtk_widget_grab_focus(view);
    gtk_window_present(GTK_WINDOW(window));
}
int main(int argc, char **argv) {
    mode = argc > 1 ? atoi(argv[1]) : 0;
    GtkApplication *app = gtk_application_new("io.github.imecomposer.LongDraft", G_APPLICATION_NON_UNIQUE);
    g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
    char *a[] = { argv[0], NULL };
    return g_application_run(G_APPLICATION(app), 1, a);
}
