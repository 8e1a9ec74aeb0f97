/* The yardstick for the composer's keystroke-to-paint latency (issue #11): a plain GTK4
 * window, 480×600, whose only content is a GtkTextView (wrap word-char, the composer's
 * margins) in a GtkScrolledWindow, as the composer's input but filling the window.
 *
 *   textview [--title TITLE] [--text-file PATH] [--text-width PX] [--text-height PX] [--print-text]
 *
 * --text-file  start with the file's UTF-8 text, the caret at its end, scrolled to it
 * --text-width wrap lines as a text view PX wide does (the composer's input is narrower
 *              than this window: its buttons are beside it); the window keeps its size,
 *              the right margin grows by the difference
 * --text-height show PX of the text, scrolling the rest, at the bottom of the window (the
 *              composer's input is as tall as six lines, then it scrolls)
 * --print-text on exit, print the buffer's text to stdout (for tests; nothing otherwise)
 *
 * Prints nothing unless asked. SIGTERM and SIGINT end it cleanly (status 0).
 * Build: cc -O2 -Wall -Wextra -Werror textview.c $(pkg-config --cflags --libs gtk4)
 */
#include <gtk/gtk.h>
#include <glib-unix.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW_WIDTH 480
#define WINDOW_HEIGHT 600

static const char *title = "Reference TextView";
static const char *text_file;
static int text_width; /* 0: the window's width */
static int text_height; /* 0: the window's height */
static gboolean print_text;
static GtkTextBuffer *buffer;

static gboolean on_signal(gpointer app)
{
    g_application_quit(G_APPLICATION(app));
    return G_SOURCE_CONTINUE;
}

static void activate(GtkApplication *app, gpointer data)
{
    (void)data;
    GtkWidget *window = gtk_application_window_new(app);
    gtk_window_set_title(GTK_WINDOW(window), title);
    gtk_window_set_default_size(GTK_WINDOW(window), WINDOW_WIDTH, WINDOW_HEIGHT);

    GtkWidget *view = gtk_text_view_new();
    gtk_text_view_set_wrap_mode(GTK_TEXT_VIEW(view), GTK_WRAP_WORD_CHAR);
    gtk_text_view_set_top_margin(GTK_TEXT_VIEW(view), 6);
    gtk_text_view_set_bottom_margin(GTK_TEXT_VIEW(view), 6);
    gtk_text_view_set_left_margin(GTK_TEXT_VIEW(view), 8);
    gtk_text_view_set_right_margin(GTK_TEXT_VIEW(view), 8 + (text_width > 0 ? WINDOW_WIDTH - text_width : 0));
    buffer = g_object_ref(gtk_text_view_get_buffer(GTK_TEXT_VIEW(view)));

    if (text_file != NULL) {
        char *contents = NULL;
        gsize length = 0;
        GError *error = NULL;
        if (!g_file_get_contents(text_file, &contents, &length, &error)) {
            fprintf(stderr, "textview: --text-file %s: %s\n", text_file, error->message);
            g_error_free(error);
            exit(2);
        }
        if (!g_utf8_validate(contents, (gssize)length, NULL)) {
            fprintf(stderr, "textview: --text-file %s: not UTF-8 text\n", text_file);
            exit(2);
        }
        gtk_text_buffer_set_text(buffer, contents, (int)length);
        g_free(contents);
        GtkTextIter end;
        gtk_text_buffer_get_end_iter(buffer, &end);
        gtk_text_buffer_place_cursor(buffer, &end);
        gtk_text_view_scroll_to_mark(GTK_TEXT_VIEW(view), gtk_text_buffer_get_insert(buffer), 0, FALSE, 0, 0);
    }

    GtkWidget *scroller = gtk_scrolled_window_new();
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroller), view);
    if (text_height > 0) {
        gtk_scrolled_window_set_max_content_height(GTK_SCROLLED_WINDOW(scroller), text_height);
        gtk_scrolled_window_set_min_content_height(GTK_SCROLLED_WINDOW(scroller), text_height);
        gtk_widget_set_valign(scroller, GTK_ALIGN_END);
    }
    gtk_window_set_child(GTK_WINDOW(window), scroller);
    gtk_widget_grab_focus(view);
    gtk_window_present(GTK_WINDOW(window));
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--title") == 0 && i + 1 < argc) {
            title = argv[++i];
        } else if (strcmp(argv[i], "--text-file") == 0 && i + 1 < argc) {
            text_file = argv[++i];
        } else if (strcmp(argv[i], "--text-width") == 0 && i + 1 < argc) {
            text_width = atoi(argv[++i]);
            if (text_width < 16 || text_width > WINDOW_WIDTH) {
                fprintf(stderr, "textview: --text-width %s: a width from 16 to %d\n", argv[i], WINDOW_WIDTH);
                return 2;
            }
        } else if (strcmp(argv[i], "--text-height") == 0 && i + 1 < argc) {
            text_height = atoi(argv[++i]);
            if (text_height < 16 || text_height > WINDOW_HEIGHT) {
                fprintf(stderr, "textview: --text-height %s: a height from 16 to %d\n", argv[i], WINDOW_HEIGHT);
                return 2;
            }
        } else if (strcmp(argv[i], "--print-text") == 0) {
            print_text = TRUE;
        } else {
            fprintf(stderr, "usage: textview [--title TITLE] [--text-file PATH] [--text-width PX] [--text-height PX] [--print-text]\n");
            return 2;
        }
    }
    /* Non-unique, as the composer: no hand-over to a running instance. */
    GtkApplication *app = gtk_application_new("io.github.imecomposer.bench.TextView", G_APPLICATION_NON_UNIQUE);
    g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
    g_unix_signal_add(SIGTERM, on_signal, app);
    g_unix_signal_add(SIGINT, on_signal, app);
    char *app_argv[] = { argv[0], NULL };
    int status = g_application_run(G_APPLICATION(app), 1, app_argv);
    if (print_text && buffer != NULL) {
        GtkTextIter start, end;
        gtk_text_buffer_get_bounds(buffer, &start, &end);
        char *text = gtk_text_buffer_get_text(buffer, &start, &end, TRUE);
        fputs(text, stdout);
        fflush(stdout);
        g_free(text);
    }
    g_clear_object(&buffer);
    g_object_unref(app);
    return status;
}
