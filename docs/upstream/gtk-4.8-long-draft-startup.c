/* Why a composer holding a long draft stays busy for many seconds after it starts, without
 * any of our code: a chat panel's input bar (a GtkTextView in a GtkScrolledWindow at the
 * bottom of a window, beside a button) given a 1 MB draft (13,157 paragraphs).
 *
 *   cc -O2 -o long-draft gtk-4.8-long-draft-startup.c $(pkg-config --cflags --libs gtk4)
 *   DRAFT=draft.txt ./long-draft MODE
 *
 * MODE is a sum of: 1 the scrolled window propagates the text view's natural height;
 * 2 its vertical policy is EXTERNAL until the input is fitted; 4 the input is fitted (min
 * and max content height 108 px, policy AUTOMATIC) when the text view is mapped; 8 fitted
 * before the window is shown; 16 only the max content height set before it is shown.
 *
 * Debian 12 (GTK 4.8.3), Xvfb, 2 cores, pango_layout_set_width calls counted with a perf
 * uprobe (one per paragraph laid out) and the time until the window is quiet (no damage,
 * no CPU for 500 ms, Benchmarks/meter/paint-meter.c `idle`), 2026-11-27:
 *
 *   MODE   paragraphs laid out   quiet after
 *   0      13,164 (1×)           7.3 s
 *   4, 6, 8 13,164 (1×)          6.0–6.2 s
 *   1      22,368–80,021 (2–6×)  25.8 s
 *   3      39,355 (3×)           not measured
 *   17     37,411 (3×)           23.0 s
 *
 * With propagate-natural-height (1), GtkTextView's snapshot lays out the paragraphs GTK has
 * not validated yet, all of them, in each of the first frames (perf: the calls come from
 * gtk_text_view_snapshot, not from the validation idle): a frame of several seconds,
 * during which the window does not answer. Without it the text is laid out once, in the
 * idle, between frames. The composer sizes its input itself (InputSizer), so it does not
 * propagate; it still lays a 1 MB draft out 4 times at start, for a reason not found yet
 * (docs/benchmarks.md, "Where the work goes").
 */
#include <gtk/gtk.h>
#include <stdlib.h>

static int mode;
static GtkWidget *scroller;

static void fit(void) {
    gtk_scrolled_window_set_min_content_height(GTK_SCROLLED_WINDOW(scroller), -1);
    gtk_scrolled_window_set_max_content_height(GTK_SCROLLED_WINDOW(scroller), 108);
    gtk_scrolled_window_set_min_content_height(GTK_SCROLLED_WINDOW(scroller), 108);
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
}

static void mapped(GtkWidget *widget, gpointer data) {
    (void)widget;
    (void)data;
    if (mode & 4) fit();
}

static void activate(GtkApplication *app, gpointer data) {
    (void)data;
    GtkWidget *window = gtk_application_window_new(app);
    gtk_window_set_title(GTK_WINDOW(window), "long-draft");
    gtk_window_set_default_size(GTK_WINDOW(window), 480, 600);
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
    GtkWidget *list = gtk_scrolled_window_new();
    gtk_widget_set_vexpand(list, TRUE);
    gtk_box_append(GTK_BOX(box), list);
    GtkWidget *bar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    GtkWidget *view = gtk_text_view_new();
    gtk_text_view_set_wrap_mode(GTK_TEXT_VIEW(view), GTK_WRAP_WORD_CHAR);
    gtk_text_view_set_top_margin(GTK_TEXT_VIEW(view), 6);
    gtk_text_view_set_bottom_margin(GTK_TEXT_VIEW(view), 6);
    gtk_text_view_set_left_margin(GTK_TEXT_VIEW(view), 8);
    gtk_text_view_set_right_margin(GTK_TEXT_VIEW(view), 8);
    GtkTextBuffer *buffer = gtk_text_view_get_buffer(GTK_TEXT_VIEW(view));
    char *contents = NULL;
    gsize length = 0;
    if (g_getenv("DRAFT") == NULL || !g_file_get_contents(g_getenv("DRAFT"), &contents, &length, NULL)) {
        g_printerr("long-draft: set DRAFT to a readable UTF-8 file\n");
        exit(2);
    }
    gtk_text_buffer_set_text(buffer, contents, (int)length);
    g_free(contents);
    GtkTextIter end;
    gtk_text_buffer_get_end_iter(buffer, &end);
    gtk_text_buffer_place_cursor(buffer, &end);
    scroller = gtk_scrolled_window_new();
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroller), GTK_POLICY_NEVER,
                                   (mode & 2) ? GTK_POLICY_EXTERNAL : GTK_POLICY_AUTOMATIC);
    if (mode & 1) gtk_scrolled_window_set_propagate_natural_height(GTK_SCROLLED_WINDOW(scroller), TRUE);
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroller), view);
    gtk_widget_set_hexpand(scroller, TRUE);
    gtk_widget_set_valign(scroller, GTK_ALIGN_END);
    gtk_box_append(GTK_BOX(bar), scroller);
    gtk_box_append(GTK_BOX(bar), gtk_button_new_with_label("Send"));
    gtk_box_append(GTK_BOX(box), bar);
    gtk_window_set_child(GTK_WINDOW(window), box);
    if (mode & 8) fit();
    if (mode & 16) gtk_scrolled_window_set_max_content_height(GTK_SCROLLED_WINDOW(scroller), 108);
    g_signal_connect(view, "map", G_CALLBACK(mapped), NULL);
    gtk_widget_grab_focus(view);
    gtk_window_present(GTK_WINDOW(window));
}

int main(int argc, char **argv) {
    mode = argc > 1 ? atoi(argv[1]) : 0;
    GtkApplication *app = gtk_application_new("io.github.imecomposer.LongDraft", G_APPLICATION_NON_UNIQUE);
    g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
    char *app_argv[] = { argv[0], NULL };
    int status = g_application_run(G_APPLICATION(app), 1, app_argv);
    g_object_unref(app);
    return status;
}
