/* The yardstick for the composer's start-up time and memory (issue #11): a minimal GTK4
 * application window, 480×600, with one label.
 *
 *   window [--title TITLE]
 *
 * Prints nothing. SIGTERM and SIGINT end it cleanly (status 0).
 * Build: cc -O2 -Wall -Wextra -Werror window.c $(pkg-config --cflags --libs gtk4)
 */
#include <gtk/gtk.h>
#include <glib-unix.h>
#include <stdio.h>
#include <string.h>

static const char *title = "Reference Window";

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
    gtk_window_set_default_size(GTK_WINDOW(window), 480, 600);
    gtk_window_set_child(GTK_WINDOW(window), gtk_label_new("Hello"));
    gtk_window_present(GTK_WINDOW(window));
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--title") == 0 && i + 1 < argc) {
            title = argv[++i];
        } else {
            fprintf(stderr, "usage: window [--title TITLE]\n");
            return 2;
        }
    }
    GtkApplication *app = gtk_application_new("io.github.imecomposer.bench.Window", G_APPLICATION_NON_UNIQUE);
    g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
    g_unix_signal_add(SIGTERM, on_signal, app);
    g_unix_signal_add(SIGINT, on_signal, app);
    char *app_argv[] = { argv[0], NULL };
    int status = g_application_run(G_APPLICATION(app), 1, app_argv);
    g_object_unref(app);
    return status;
}
