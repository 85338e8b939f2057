"""The colours of every drawing of a board: cars by route colour, cities, the
highlighted path, tickets and heat. Previews, the print PDF and report figures
read them here, so a board looks the same wherever it is drawn."""

from __future__ import annotations

from collections.abc import Mapping

from ttr_maps.model import GRAY

#: Fill colour of the cars of each route colour. White and gray cars get a dark
#: edge like every car, so they stay visible on the white background.
CAR_FILL: Mapping[str, str] = {
    "red": "#d7301f",
    "orange": "#f28e1c",
    "yellow": "#f5d327",
    "green": "#2e9e44",
    "blue": "#2166ac",
    "pink": "#e57fbf",
    "black": "#1f1f1f",
    "white": "#ffffff",
    GRAY: "#a9a9a9",
}
CAR_EDGE = "#262626"
CITY_FILL = "#fdf6e3"
HIGHLIGHT_COLOR = "#00b4ff"
TICKET_COLOR = "#7b3294"
#: Colormap of route and city heat (`ttr_maps.render.overlay.Heat`): pale for 0,
#: dark red for 1.
HEAT_CMAP = "YlOrRd"
#: Coasts and country borders under a geographic board (`ttr preview
#: --background`), as the editor draws them: a sea-blue coast, a dashed brown border.
COAST_COLOR = "#6f8fa8"
BORDER_COLOR = "#a89a84"
