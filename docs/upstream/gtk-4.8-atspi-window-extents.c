/* AT-SPI extents in GTK 4.8 start 5 px inside the X window on X11 without a compositor,
 * reproduced without any of our code: a window with a GtkHeaderBar and a GtkTextView. The
 * lab clicks other apps' inputs where AT-SPI places their first character
 * (`ime-composer matrix --app`, PeerSession.windowPoint), and in Dino that click landed
 * outside the input until the difference was added.
 *
 * On Debian 12 (GTK 4.8.3, Xvfb, no compositing manager) the X window is 400×200 with no
 * _GTK_FRAME_EXTENTS, and through AT-SPI (CoordType.WINDOW, which GTK 4 also returns for
 * SCREEN) the frame is 390×190 at 0,0 and the text view's first character at 0,46; on
 * screen that character is drawn at 5,51. The window draws a 5 px border of its own without
 * a compositor (the solid-csd style class) and GTK measures AT-SPI extents from inside it.
 * With a compositor the margin is the shadow's, which GTK publishes in _GTK_FRAME_EXTENTS.
 * A client of AT-SPI cannot tell the border from the extents alone: comparing the frame's
 * size with the X window's is the only way found. Not yet reported upstream; trycua/cua#1931
 * describes the related SCREEN-as-WINDOW behaviour of GTK 4's AT-SPI bridge.
 *
 *   cc -o extents gtk-4.8-atspi-window-extents.c $(pkg-config --cflags --libs gtk4)
 *   Xvfb :91 -noreset & export DISPLAY=:91 GDK_BACKEND=x11
 *   dbus-run-session -- sh -c './extents & sleep 2;
 *     xdotool getwindowgeometry --shell $(xdotool search --onlyvisible --name "^extents$");
 *     /usr/bin/python3 -c "
 *   import gi; gi.require_version(\"Atspi\", \"2.0\"); from gi.repository import Atspi
 *   def walk(n):
 *       yield n
 *       for i in range(n.get_child_count()): yield from walk(n.get_child_at_index(i))
 *   d = Atspi.get_desktop(0)
 *   for n in walk(d):
 *       if n.get_role_name() == \"frame\": print(\"frame\", Atspi.Component.get_extents(n, Atspi.CoordType.WINDOW).width)
 *       if n.get_role_name() == \"text\": print(\"char\", Atspi.Text.get_character_extents(n, 0, Atspi.CoordType.WINDOW).x)
 *   "'
 */
#include <gtk/gtk.h>

static void activate(GtkApplication *app, G_GNUC_UNUSED gpointer data) {
  GtkWidget *window = gtk_application_window_new(app);
  gtk_window_set_title(GTK_WINDOW(window), "extents");
  gtk_window_set_default_size(GTK_WINDOW(window), 400, 200);
  gtk_window_set_titlebar(GTK_WINDOW(window), gtk_header_bar_new());
  GtkWidget *text = gtk_text_view_new();
  gtk_text_buffer_set_text(gtk_text_view_get_buffer(GTK_TEXT_VIEW(text)), "Wide", -1);
  gtk_window_set_child(GTK_WINDOW(window), text);
  gtk_window_present(GTK_WINDOW(window));
  gtk_widget_grab_focus(text);
}

int main(int argc, char **argv) {
  GtkApplication *app = gtk_application_new("org.example.Extents", G_APPLICATION_DEFAULT_FLAGS);
  g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
  return g_application_run(G_APPLICATION(app), argc, argv);
}
