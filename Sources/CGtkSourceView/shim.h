// GtkSourceView 5, for the completion benchmark only: its fuzzy matcher
// (gtk_source_completion_fuzzy_match) is the yardstick our matcher is measured against.
#ifndef CGTKSOURCEVIEW_SHIM_H
#define CGTKSOURCEVIEW_SHIM_H

#include <gtksourceview/gtksource.h>

#endif
