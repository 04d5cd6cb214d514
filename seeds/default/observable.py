"""Observation surface, seed "default": the frame as a background colour plus one-colour objects.

parse(frame) -> z and render(z) -> grid are exact inverses: render(parse(frame)) == frame for
every frame. z = {"width", "height", "background", "objects": [{"id", "color", "size",
"bbox": [x0, y0, x1, y1], "cells": [[x, y], ...]}]}; objects are listed in reading order of
their first cell and their cells in reading order (row by row, left to right).
"""

ENTITY_TYPES = {
    "object": "a 4-connected region of cells of one colour that is not the background colour",
}


def obs_background(frame):
    """The most frequent colour of the frame (the lowest colour on ties)."""
    counts = [0] * 16
    for row in frame:
        for colour in row:
            counts[colour] = counts[colour] + 1
    best = 0
    for colour in range(16):
        if counts[colour] > counts[best]:
            best = colour
    return best


def obs_flood(frame, seen, start, width, height):
    """The cell indices (y * width + x) of the 4-connected one-colour region containing start."""
    colour = frame[start // width][start % width]
    seen[start] = True
    stack = [start]
    cells = []
    while stack:
        index = stack.pop()
        cells.append(index)
        x = index % width
        y = index // width
        neighbours = []
        if x > 0:
            neighbours.append(index - 1)
        if x < width - 1:
            neighbours.append(index + 1)
        if y > 0:
            neighbours.append(index - width)
        if y < height - 1:
            neighbours.append(index + width)
        for other in neighbours:
            if not seen[other] and frame[other // width][other % width] == colour:
                seen[other] = True
                stack.append(other)
    return sorted(cells)


def obs_describe(ident, colour, indices, width):
    """One object: id, colour, size, inclusive bounding box and cells as [x, y]."""
    cells = [[index % width, index // width] for index in indices]
    xs = [cell[0] for cell in cells]
    ys = [cell[1] for cell in cells]
    return {
        "id": ident,
        "color": colour,
        "size": len(cells),
        "bbox": [min(xs), min(ys), max(xs), max(ys)],
        "cells": cells,
    }


def parse(frame):
    """Split the frame into its background colour and its one-colour 4-connected objects."""
    height = len(frame)
    width = len(frame[0])
    background = obs_background(frame)
    seen = [False] * (width * height)
    objects = []
    for y in range(height):
        row = frame[y]
        for x in range(width):
            if row[x] != background and not seen[y * width + x]:
                indices = obs_flood(frame, seen, y * width + x, width, height)
                objects.append(obs_describe(len(objects), row[x], indices, width))
    return {"width": width, "height": height, "background": background, "objects": objects}


def render(z):
    """Paint the objects' cells over a background-filled grid."""
    grid = [[z["background"]] * z["width"] for y in range(z["height"])]
    for obj in z["objects"]:
        for cell in obj["cells"]:
            grid[cell[1]][cell[0]] = obj["color"]
    return grid
