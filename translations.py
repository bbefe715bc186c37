"""Russian translation of every Strew UI string, through ``bpy.app.translations``.

Blender uses it when the interface language is Russian (Preferences → Interface → Translation). Labels,
tooltips, property names and enum items are looked up by Blender itself; report and error messages built
with values are translated from their templates with ``pgettext_rpt`` before the values are filled in
(``rpt_("Cleared {count:,} Strew object(s)").format(count=n)``).

Keys are the exact English strings. Every string is registered in the default context ``"*"`` (panels,
properties, enum items, reports) and in ``"Operator"`` (operator labels); ``OPERATOR_RUSSIAN`` holds the
few words that read differently as a button ("Scatter" the panel vs "Scatter" the action).
``tests/blender/test_translations.py`` checks that every registered Strew string has an entry here.
"""

from __future__ import annotations

import bpy

LOCALE = "ru_RU"

RUSSIAN: dict[str, str] = {
    # -- panels --------------------------------------------------------------------------------------------
    "Strew": "Strew",
    "Scatter": "Разброс",
    "Objects": "Объекты",
    "Spacing": "Расстояние",
    "Density": "Плотность",
    "Masks": "Маски",
    "Placement": "Размещение",
    "Large Worlds": "Большие миры",
    "This Layer": "Этот слой",
    "The collection is empty": "Коллекция пуста",
    "{name} (collection, weight {weight:g})": "{name} (коллекция, вес {weight:g})",
    # -- operators -----------------------------------------------------------------------------------------
    "About Strew": "О Strew",
    "Show which version of Strew is running": "Показать, какая версия Strew запущена",
    "Clear": "Очистить",
    "Remove what Strew scattered; objects Strew did not create are never touched":
        "Удалить то, что разбросал Strew; объекты, созданные не Strew, не затрагиваются",
    "Layer": "Слой",
    "Clear only this layer's output (-1: all layers)": "Очистить результат только этого слоя (-1: всех слоёв)",
    "Add Layer": "Добавить слой",
    "Add a scatter layer below the active one": "Добавить слой разброса под активным",
    "Move Layer": "Переместить слой",
    "Move the active layer up or down (layers run top to bottom, big objects first)":
        "Переместить активный слой вверх или вниз (слои выполняются сверху вниз, крупные объекты первыми)",
    "Direction": "Направление",
    "Up": "Вверх",
    "Run earlier": "Выполнять раньше",
    "Down": "Вниз",
    "Run later": "Выполнять позже",
    "Remove Layer": "Удалить слой",
    "Remove the active scatter layer (its scattered output stays until Clear)":
        "Удалить активный слой разброса (его результат остаётся в сцене до очистки)",
    "Scatter every enabled layer on the terrain (earlier layers keep later ones away)":
        "Разбросать все включённые слои по ландшафту (верхние слои отодвигают нижние)",
    "Scatter only this layer (-1: every enabled layer)": "Разбросать только этот слой (-1: все включённые слои)",
    # -- poll messages and reports -------------------------------------------------------------------------
    "There is no layer to remove": "Нет слоя для удаления",
    "Needs at least two layers": "Нужно хотя бы два слоя",
    "Pick a mesh terrain first": "Сначала выберите ландшафт (меш)",
    "Add a layer first": "Сначала добавьте слой",
    "Scatter cancelled; the scene is unchanged": "Разброс отменён; сцена не изменилась",
    "Strew {version}": "Strew {version}",
    "none": "нет",
    "{name}: {count:,} instances in {seconds:.2f} s": "{name}: {count:,} экз. за {seconds:.2f} с",
    "Scatter finished in {seconds:.2f} s": "Разброс завершён за {seconds:.2f} с",
    "There is no layer {index}": "Нет слоя с номером {index}",
    "Cleared {count:,} Strew object(s)": "Удалено объектов Strew: {count:,}",
    # -- errors (scene/scatter_job.py, scene/terrain.py, scene/layer_fields.py) -------------------------------
    'Layer "{name}"': "Слой «{name}»",
    "{layer} has no collection: pick the collection whose objects it should place":
        "{layer}: не выбрана коллекция; выберите коллекцию, объекты которой он должен расставлять",
    '{layer}: collection "{collection}" is empty; add the objects to place':
        "{layer}: коллекция «{collection}» пуста; добавьте в неё объекты для размещения",
    '{layer}: every object in "{collection}" has weight 0; give one a weight > 0':
        "{layer}: у всех объектов в «{collection}» вес 0; задайте хотя бы одному вес больше 0",
    "{layer}: density is set to Image but no image is picked":
        "{layer}: плотность задана изображением, но изображение не выбрано",
    "{layer}: density is set to Vertex Group but no group is named":
        "{layer}: плотность задана группой вершин, но группа не указана",
    "{layer}: density Low is above High": "{layer}: нижняя граница плотности выше верхней",
    "No terrain: pick a mesh object as the terrain in the Scatter panel":
        "Нет ландшафта: выберите меш-объект как ландшафт на панели «Разброс»",
    'Terrain "{name}" is a {kind}, not a mesh: pick a mesh object':
        "Ландшафт «{name}» — это {kind}, а не меш: выберите меш-объект",
    "No enabled layer: add a layer (+) or enable one":
        "Нет включённых слоёв: добавьте слой (+) или включите существующий",
    'Two layers have the same name: rename one (each layer writes "Strew <name>")':
        "У двух слоёв одинаковое имя: переименуйте один (каждый слой пишет в «Strew <имя>»)",
    "A layer was removed while Scatter ran: nothing was written; scatter again":
        "Слой удалили, пока шёл разброс: ничего не записано; запустите разброс снова",
    '{layer}: collection "{collection}" reaches Strew\'s own output "{output}" through "{through}", which Blender '
    'cannot draw (a cycle); take "{through}" out of "{collection}"':
        "{layer}: коллекция «{collection}» доходит до собственного вывода Strew «{output}» через «{through}», "
        "а такой цикл Blender нарисовать не может; уберите «{through}» из «{collection}»",
    'Terrain "{name}": {error}': "Ландшафт «{name}»: {error}",
    'Layer "{name}": {error}': "Слой «{name}»: {error}",
    'Layer "{name}" on "{surface}": {error}': "Слой «{name}» на «{surface}»: {error}",
    'Layer "{name}" would create {count:,} objects, more than Max Objects ({max_objects:,}): '
    "use the Point Instancer output, raise Max Objects, or a larger radius":
        "Слой «{name}» создал бы {count:,} объектов, больше, чем «Макс. объектов» ({max_objects:,}): "
        "выберите вывод «Точечный инстансер», увеличьте «Макс. объектов» или радиус",
    'Terrain "{name}" has no vertex group "{group}" (it has: {known})':
        "У ландшафта «{name}» нет группы вершин «{group}» (есть: {known})",
    '"{name}" is a {kind}, not a mesh: pick a mesh object as the terrain':
        "«{name}» — это {kind}, а не меш: выберите меш-объект в качестве ландшафта",
    'Terrain "{name}" has no faces: add faces or pick another mesh':
        "У ландшафта «{name}» нет граней: добавьте грани или выберите другой меш",
    '"{name}" (collection "{collection}")': "«{name}» (коллекция «{collection}»)",
    'Tile "{name}"': "Плитка «{name}»",
    'Mesh "{name}"': "Меш «{name}»",
    "{name}: face {face} has a corner (vertex {vertex}) at ({where}), {problem}; move or delete that vertex":
        "{name}: у грани {face} есть угол (вершина {vertex}) в ({where}), {problem}; переместите или удалите эту "
        "вершину",
    "{name}: vertex {vertex} is at ({where}), {problem}; move or delete it":
        "{name}: вершина {vertex} находится в ({where}), {problem}; переместите или удалите её",
    "not a finite point": "это не конечная точка",
    "farther than {limit:g} m from the origin": "дальше {limit:g} м от начала координат",
    'image "{name}" has no pixels (is the file missing?)':
        "у изображения «{name}» нет пикселей (файл отсутствует?)",
    # -- object settings -----------------------------------------------------------------------------------
    "Weight": "Вес",
    "How often this object is picked relative to the other objects of its collection "
    '(a plain custom property "strew_weight" on the object wins over this value)':
        "Как часто выбирается этот объект по сравнению с другими объектами его коллекции "
        "(обычное пользовательское свойство «strew_weight» на объекте важнее этого значения)",
    # -- scatter layer -------------------------------------------------------------------------------------
    "Enabled": "Включён",
    "Include this layer when scattering all layers": "Учитывать этот слой при разбросе всех слоёв",
    "Layer ID": "ID слоя",
    "The id of the layer the rule names, so the rule follows it through a rename (set by Strew)":
        "ID слоя, названного в правиле, чтобы правило следовало за ним при переименовании (задаётся Strew)",
    "Marks this layer's output so Strew finds it after a rename (set once by Strew)":
        "Отмечает вывод этого слоя, чтобы Strew находил его после переименования (задаётся Strew один раз)",
    "Collection": "Коллекция",
    "Collection whose objects are the prefabs placed by this layer":
        "Коллекция, объекты которой этот слой расставляет как заготовки",
    "What the instances keep apart: their origins, or their objects' footprints":
        "Что экземпляры держат на расстоянии: свои центры или следы своих объектов",
    "Instances keep the radius between their origins, whatever their size":
        "Экземпляры держат радиус между своими центрами, каков бы ни был их размер",
    "Object Size": "Размер объекта",
    "Each instance takes its prefab's footprint at its scale (the smallest "
    "circle around its origin holding it seen from above, a sphere on Every Face; a prefab's strew_radius "
    "property overrides it) and footprints keep the radius between their edges: big and small objects pack "
    "without overlapping":
        "Каждый экземпляр занимает след своей заготовки в своём масштабе (наименьший круг вокруг его центра, "
        "вмещающий его при взгляде сверху, на «Всех гранях» — шар; свойство strew_radius заготовки задаёт его "
        "явно), и следы держат радиус между своими краями: большие и малые объекты ложатся плотно, не пересекаясь",
    "Min Gap": "Мин. зазор",
    "a distance ≥ 0 in metres, e.g. 1.5": "расстояние ≥ 0 в метрах, например 1.5",
    "Max Gap": "Макс. зазор",
    "Min Radius": "Мин. радиус",
    "Smallest distance between two instances of this layer (densest places)":
        "Наименьшее расстояние между двумя экземплярами этого слоя (в самых плотных местах)",
    "Max Radius": "Макс. радиус",
    "Largest distance between two instances, in the sparsest places of the "
    "Density; with Uniform density every instance keeps Min Radius":
        "Наибольшее расстояние между двумя экземплярами, в самых редких местах плотности; "
        "при равномерной плотности везде действует мин. радиус",
    "Keep Away": "Дистанция",
    "Minimum distance from the instances of the layers above this one "
    "(the layer's own radius applies when it is larger)":
        "Минимальное расстояние до экземпляров слоёв выше этого "
        "(если собственный радиус слоя больше, действует он)",
    "Seed": "Зерно",
    "Same seed, same settings: same result": "То же зерно и те же настройки дают тот же результат",
    "Start Points": "Стартовые точки",
    "Random starting places, so islands cut off by masks get points too":
        "Случайные начальные места, чтобы точки получили и острова, отрезанные масками",
    "Uniform": "Равномерно",
    "Every place gets the largest density (the Min Radius spacing)":
        "Везде наибольшая плотность (шаг мин. радиуса)",
    "Noise": "Шум",
    "Density from seeded gradient noise: groves and clearings": "Плотность из градиентного шума: рощи и поляны",
    "Vertex Group": "Группа вершин",
    "Density painted on the terrain as vertex weights": "Плотность, нарисованная на ландшафте весами вершин",
    "Image": "Изображение",
    "Density from an image stretched over the terrain's XY bounds":
        "Плотность из изображения, растянутого на границы ландшафта по XY",
    "Noise Scale": "Масштаб шума",
    "Size of groves and clearings": "Размер рощ и полян",
    "Octaves": "Октавы",
    "Layers of finer noise detail": "Слои более мелких деталей шума",
    "Density Group": "Группа вершин",
    "Terrain vertex group whose weights give the density": "Группа вершин ландшафта, веса которой задают плотность",
    "Density Image": "Изображение плотности",
    "Image whose brightness gives the density over the terrain's XY bounds":
        "Изображение, яркость которого задаёт плотность в границах ландшафта по XY",
    "Low": "Порог снизу",
    "Density values at or below this count as empty (curve remap)":
        "Значения плотности не выше этого считаются пустыми (перераспределение кривой)",
    "High": "Порог сверху",
    "Density values at or above this count as full; a narrow band between Low and High gives sharp forest edges":
        "Значения плотности не ниже этого считаются полными; узкая полоса между нижней и верхней границами "
        "даёт резкие края леса",
    "Invert": "Инвертировать",
    "Swap dense and sparse places": "Поменять местами густые и редкие места",
    "Max Slope": "Макс. уклон",
    "No instances where the terrain is steeper than this": "Без экземпляров там, где ландшафт круче этого",
    "Height Range": "Диапазон высот",
    "Only between Lowest and Highest": "Только между нижней и верхней высотой",
    "Lowest": "Нижняя",
    "Highest": "Верхняя",
    "Mask Group": "Группа маски",
    "Only where this terrain vertex group's weight reaches the threshold":
        "Только там, где вес этой группы вершин ландшафта достигает порога",
    "Threshold": "Порог",
    "Mask Image": "Изображение-маска",
    "Only where this image, stretched over the terrain seen from above, is at least as bright as the threshold":
        "Только там, где это изображение, растянутое по ландшафту (вид сверху), не темнее порога",
    "Exclude": "Исключить",
    "Curves (roads, rivers) and meshes (houses, ponds) to keep clear, seen from above":
        "Кривые (дороги, реки) и меши (дома, пруды), которые нужно оставить свободными (вид сверху)",
    "Margin": "Отступ",
    "Distance to keep from the excluded curves and meshes": "Расстояние до исключённых кривых и мешей",
    "Align to Normal": "По нормали",
    "0: instances stand upright; 1: they follow the terrain's slope":
        "0: экземпляры стоят вертикально; 1: они следуют уклону ландшафта",
    "Random Yaw": "Случ. поворот",
    "Turn each instance randomly about its up axis": "Случайно повернуть каждый экземпляр вокруг его вертикальной оси",
    "Scale Min": "Мин. масштаб",
    "Scale Max": "Макс. масштаб",
    "Output": "Вывод",
    "Point Instancer": "Инстансер точек",
    "One point object per layer instancing the collection with Geometry Nodes (fast, 100k+ instances)":
        "Один объект точек на слой, размножающий коллекцию геометрическими узлами (быстро, 100 тыс.+ экземпляров)",
    "Collection Empties": "Пустышки",
    "One empty per instance that instances the picked prefab":
        "Одна пустышка на экземпляр, показывающая выбранную заготовку",
    "Linked Duplicates": "Связ. дубликаты",
    "One real object per instance sharing the prefab's data (slow above a few thousand)":
        "Один настоящий объект на экземпляр с общими данными заготовки (медленно, если их больше нескольких тысяч)",
    "Repeat Tile": "Повтор плитки",
    "Sample one seamless tile and repeat it over the terrain (fast for huge areas); "
    "a per-position hash hides the repetition":
        "Построить одну бесшовную плитку и повторить её по ландшафту (быстро для огромных площадей); "
        "хеш от положения скрывает повторы",
    "Tile Size": "Размер плитки",
    "Side of the repeated tile; at least ten radii": "Сторона повторяемой плитки; не меньше десяти радиусов",
    "Keep": "Оставить",
    "Fraction of the tile's points kept at each world position (hides the repeat)":
        "Доля точек плитки, оставляемых в каждом месте мира (скрывает повтор)",
    # -- scene settings ------------------------------------------------------------------------------------
    "Terrain": "Ландшафт",
    "Mesh object to scatter on (its modifiers and transform are taken into account)":
        "Меш-объект, по которому идёт разброс (его модификаторы и трансформация учитываются)",
    "layers": "слои",
    "Active Layer": "Активный слой",
    "Preview": "Предпросмотр",
    "Draw scatter points and their radius circles in the viewport":
        "Рисовать точки разброса и круги их радиусов во вьюпорте",
    "Chunk Size": "Размер блока",
    "Large terrains are processed in square chunks of this side, in bounded memory and without seams; 0: automatic "
    "(64 times a layer's largest radius)":
        "Большие ландшафты обрабатываются квадратными блоками с такой стороной, в ограниченной памяти и без швов; "
        "0 — автоматически (64 наибольших радиуса слоя)",
    "Chunk Size (Automatic)": "Размер блока (авто)",
    "Workers": "Процессы",
    "Processes that sample the chunks of a large terrain at the same time; 0: Auto (one per core for each layer "
    "where that is faster than one process, else one); the result is the same for any number":
        "Сколько процессов одновременно обрабатывают блоки большого ландшафта; 0 — авто (по одному на ядро для "
        "каждого слоя, где это быстрее одного процесса, иначе один); результат от их числа не зависит",
    "Workers (Auto)": "Процессы (авто)",
    'Layer "{name}": farm tasks scatter from above only; set its Surface to From Above or run it without --chunks':
        "Слой «{name}»: задачи фермы разбрасывают только сверху; выберите поверхность «Сверху» или запустите "
        "без --chunks",
    "Scatter settings: {error}": "Настройки разброса: {error}",
    "This machine has {cores} cores: {cores} workers run": "У этой машины ядер: {cores}; работают {cores} процесса(ов)",
    'run the tasks {start}:{stop} (layer "{layer}", phase {phase})':
        "выполните задачи {start}:{stop} (слой «{layer}», фаза {phase})",
    "Part file {path} is missing: {again} first": "Нет файла части {path}: сначала {again}",
    "Part file {path} is damaged ({reason}): {again} again": "Файл части {path} повреждён ({reason}): {again} заново",
    "Part file {path} was computed from another seed, other settings or another terrain than this file's: "
    "{again} again on this file, or merge into the file the tasks ran on":
        "Файл части {path} посчитан с другим зерном, другими настройками или другим ландшафтом, чем в этом файле: "
        "{again} заново на этом файле или собирайте в тот файл, на котором шли задачи",
    'Layer "{name}": a layer it keeps away from is empty, so its chunks fall in other phases than planned: run it '
    "without --chunks, or drop the empty layer's Keep Away rule":
        "Слой «{name}»: слой, от которого он держит дистанцию, пуст, и блоки попадают в другие фазы, чем в плане: "
        "запустите без --chunks или уберите правило дистанции для пустого слоя",
    "Max Objects": "Макс. объектов",
    "Refuse to create more real objects (empties or duplicates) than this per layer; "
    "use the Point Instancer output for more":
        "Не создавать больше настоящих объектов (пустышек или дубликатов) на слой; для большего числа "
        "используйте вывод «Точечный инстансер»",
    # -- tile rooms (strings of the tile-rooms branch; kept here so its merge starts translated) ------------
    "Tile Rooms": "Комнаты из плиток",
    "Constraints": "Ограничения",
    "Search": "Поиск",
    "Active Tile": "Активная плитка",
    "Strew Tile": "Плитка Strew",
    "Detect Sockets of Selected": "Разъёмы выделенных",
    "Fixed Tiles": "Закреплённые плитки",
    "Assemble Room": "Собрать комнату",
    "Fill a grid with the kit's tiles so that every side fits its neighbour; "
    "replaces only Strew's previous room of the same name":
        "Заполнить сетку плитками набора так, чтобы каждая сторона подходила соседней; "
        "заменяет только прежнюю комнату Strew с тем же именем",
    "Kit": "Набор",
    "Name of the kit collection": "Имя коллекции набора",
    "Room": "Комната",
    "Size": "Размер",
    "Cell Size": "Размер ячейки",
    "Origin": "Начало",
    "Periodic": "Периодичность",
    "Border": "Граница",
    "Label(s) outside the four walls; empty: no border": "Метка(и) снаружи четырёх стен; пусто: без границы",
    "Below": "Снизу",
    "Above": "Сверху",
    "Compatible": "Совместимые",
    "All Walkable Connected": "Проходы связаны",
    "TILE[@ROTATION] X Y Z separated by ';' (replaces the panel's list)":
        "ПЛИТКА[@ПОВОРОТ] X Y Z через «;» (заменяет список на панели)",
    "Heuristic": "Эвристика",
    "Auto": "Авто",
    "Minimum entropy first, scanline after a few restarts (with connectivity: scanline and a growing front in "
    "turn)":
        "Сначала минимальная энтропия, после нескольких перезапусков построчно (со связностью: попеременно "
        "построчно и растущим фронтом)",
    "Minimum Entropy": "Мин. энтропия",
    "Collapse the least certain cell first": "Сначала определять наименее определённую ячейку",
    "Fewest Options": "Мин. вариантов",
    "Collapse the cell with the fewest tiles left": "Сначала определять ячейку с наименьшим числом оставшихся плиток",
    "Scanline": "Построчно",
    "Fill row by row (one growing front: fewer dead ends with connectivity)":
        "Заполнять ряд за рядом (один растущий фронт: меньше тупиков при связности)",
    "Backtracking Budget": "Лимит откатов",
    "Restarts": "Перезапуски",
    "Give Up After": "Сдаться через",  # not "Time Limit": Blender's own catalogue would win and be cut
    "Build Demo Kit": "Создать демо-набор",
    "Build a modular kit of 53 tiles (floors, walls, corners, doors, arches, windows, corridors, stairs, "
    "balconies, air) with sockets set, in a new collection":
        "Создать модульный набор из 53 плиток (полы, стены, углы, двери, арки, окна, коридоры, лестницы, "
        "балконы, воздух) с заданными разъёмами в новой коллекции",
    "Clear Room": "Очистить комнату",
    "Remove the room Strew assembled; the kit and your own objects are never touched":
        "Удалить комнату, собранную Strew; набор и ваши собственные объекты не затрагиваются",
    "Room to clear (default: the panel's)": "Комната для очистки (по умолчанию: с панели)",
    "Detect Sockets": "Определить разъёмы",
    "Label the four sides of the tiles from the faces lying on the cell's boundary planes (rasterised and "
    "hashed; mirrored profiles get labels x and x~ that fit each other). Review them afterwards":
        "Пометить четыре стороны плиток по граням, лежащим на граничных плоскостях ячейки (растеризация и хеш; "
        "зеркальные профили получают метки x и x~, подходящие друг к другу). Затем проверьте их",
    "Tiles": "Плитки",
    "Whole Kit": "Весь набор",
    "Every tile of the panel's kit": "Все плитки набора с панели",
    "Selected": "Выделенные",
    "The selected objects": "Выделенные объекты",
    "Kit collection (default: the panel's)": "Коллекция набора (по умолчанию: с панели)",
    "Precision": "Точность",
    "Vertices are rounded to this step before hashing; geometry off by more gets another label":
        "Вершины округляются до этого шага перед хешированием; геометрия, отличающаяся сильнее, "
        "получает другую метку",
    "Add Fixed Tile": "Добавить закреплённую плитку",
    "Pin a tile to a cell (the active object, when it is a tile of the kit)":
        "Закрепить плитку в ячейке (активный объект, если это плитка набора)",
    "Remove Fixed Tile": "Удалить закреплённую плитку",
    "Remove the selected fixed tile": "Удалить выбранную закреплённую плитку",
    "North": "Север",
    "East": "Восток",
    "South": "Юг",
    "West": "Запад",
    "Label of the tile's North side (+Y). Facing sides fit when their labels are equal or form a compatible "
    "pair; empty means open/nothing and fits only another empty side":
        "Метка северной стороны плитки (+Y). Соседние стороны подходят друг другу, если их метки равны или "
        "образуют совместимую пару; пустая метка означает «открыто/ничего» и подходит только к другой пустой",
    "Label of the tile's East side (+X). Facing sides fit when their labels are equal or form a compatible "
    "pair; empty means open/nothing and fits only another empty side":
        "Метка восточной стороны плитки (+X). Соседние стороны подходят друг другу, если их метки равны или "
        "образуют совместимую пару; пустая метка означает «открыто/ничего» и подходит только к другой пустой",
    "Label of the tile's South side (-Y). Facing sides fit when their labels are equal or form a compatible "
    "pair; empty means open/nothing and fits only another empty side":
        "Метка южной стороны плитки (-Y). Соседние стороны подходят друг другу, если их метки равны или "
        "образуют совместимую пару; пустая метка означает «открыто/ничего» и подходит только к другой пустой",
    "Label of the tile's West side (-X). Facing sides fit when their labels are equal or form a compatible "
    "pair; empty means open/nothing and fits only another empty side":
        "Метка западной стороны плитки (-X). Соседние стороны подходят друг другу, если их метки равны или "
        "образуют совместимую пару; пустая метка означает «открыто/ничего» и подходит только к другой пустой",
    "Label of the tile's Up side (+Z, the top face). Facing sides fit when their labels are equal or form a "
    "compatible pair; empty means open/nothing and fits only another empty side":
        "Метка верхней стороны плитки (+Z, верхняя грань). Соседние стороны подходят друг другу, если их "
        "метки равны или образуют совместимую пару; пустая метка означает «открыто/ничего» и подходит только "
        "к другой пустой",
    "Label of the tile's Down side (-Z, the bottom face). Facing sides fit when their labels are equal or form "
    "a compatible pair; empty means open/nothing and fits only another empty side":
        "Метка нижней стороны плитки (-Z, нижняя грань). Соседние стороны подходят друг другу, если их "
        "метки равны или образуют совместимую пару; пустая метка означает «открыто/ничего» и подходит только "
        "к другой пустой",
    "Rotations": "Повороты",
    "Turns of this tile the room may use (counter-clockwise about +Z seen from above)":
        "Повороты этой плитки, которые может использовать комната (против часовой стрелки вокруг +Z, вид сверху)",
    "0°": "0°",
    "The tile as modelled": "Плитка как смоделирована",
    "90°": "90°",
    "Turned a quarter counter-clockwise (seen from above): east faces north":
        "Повёрнута на четверть оборота против часовой стрелки (вид сверху): восток смотрит на север",
    "180°": "180°",
    "Turned half a turn": "Повёрнута на пол-оборота",
    "270°": "270°",
    "Turned three quarters counter-clockwise": "Повёрнута на три четверти оборота против часовой стрелки",
    "Walkable": "Проходимая",
    'A visitor can stand on this tile (used by "All Walkable Connected")':
        "На этой плитке может стоять посетитель (используется в «Все проходимые связаны»)",
    "Passable": "Выходы",
    "Sides of a walkable tile a visitor can leave through (doors, openings, stairs)":
        "Стороны проходимой плитки, через которые посетитель может выйти (двери, проёмы, лестницы)",
    "A visitor can leave through the north side (+Y)": "Посетитель может выйти через северную сторону (+Y)",
    "A visitor can leave through the east side (+X)": "Посетитель может выйти через восточную сторону (+X)",
    "A visitor can leave through the south side (-Y)": "Посетитель может выйти через южную сторону (-Y)",
    "A visitor can leave through the west side (-X)": "Посетитель может выйти через западную сторону (-X)",
    "A visitor can climb to the cell above (bottom of a stair)":
        "Посетитель может подняться в ячейку выше (низ лестницы)",
    "A visitor can climb down to the cell below (top of a stair)":
        "Посетитель может спуститься в ячейку ниже (верх лестницы)",
    "Tile": "Плитка",
    "Tile of the kit to place in this cell": "Плитка набора для этой ячейки",
    "Rotation": "Поворот",
    "Cell": "Ячейка",
    "Grid cell (x, y, z) counted from the room origin": "Ячейка сетки (x, y, z), отсчитанная от начала комнаты",
    "Collection whose objects are the tiles (each with sockets in Object Properties › Strew Tile)":
        "Коллекция, объекты которой являются плитками (у каждой разъёмы в Свойства объекта › Плитка Strew)",
    "Name of the output collection; assembling again replaces only this room":
        "Имя выходной коллекции; повторная сборка заменяет только эту комнату",
    "Number of cells along x, y and z (floors)": "Число ячеек по x, y и z (этажи)",
    "Cell Size from Kit": "Ячейка из набора",
    "Take the cell size from the kit (its \"strew_cell_size\" property, else the tiles' bounds)":
        "Брать размер ячейки из набора (его свойство «strew_cell_size», иначе габариты плиток)",
    "Width, depth and height of one cell": "Ширина, глубина и высота одной ячейки",
    "World position of cell (0, 0, 0): the centre of its bottom face (the tiles' origin)":
        "Положение ячейки (0, 0, 0) в мире: центр её нижней грани (начало координат плиток)",
    "Wrap around in x and y (the room tiles seamlessly)": "Замкнуть по x и y (комната повторяется без швов)",
    "Closed Room": "Закрытая комната",
    "Only sides fitting the border socket(s) face outwards (the demo kit turns it on)":
        "Наружу смотрят только стороны, подходящие к разъёму(-ам) границы (демо-набор включает это)",
    'Socket label(s) outside the four walls (comma separated: e.g. "wall, window")':
        "Метка(и) разъёма снаружи четырёх стен (через запятую: например, «wall, window»)",
    "Socket label below the lowest floor (empty: no constraint)":
        "Метка разъёма под нижним этажом (пусто: без ограничения)",
    "Socket label above the top floor (empty: no constraint)":
        "Метка разъёма над верхним этажом (пусто: без ограничения)",
    "Extra pairs of labels that fit each other, as a=b separated by commas (added to the kit's own "
    "\"strew_compatible\"; labels x and x~ always pair)":
        "Дополнительные пары подходящих друг к другу меток в виде a=b через запятую (добавляются к "
        "«strew_compatible» самого набора; метки x и x~ всегда образуют пару)",
    "Every walkable tile can be reached from every other (through passable sides and stairs)":
        "Из каждой проходимой плитки можно дойти до любой другой (через выходы и лестницы)",
    "fixed": "закреплённые",
    "active_fixed_index": "active_fixed_index",
    "Undo steps allowed per attempt before starting over (0: restarts only)":
        "Сколько шагов можно откатить за попытку, прежде чем начать заново (0: только перезапуски)",
    "Fresh attempts after a dead end before giving up": "Новые попытки после тупика, прежде чем сдаться",
    "Give up after this many seconds": "Сдаться через столько секунд",
    "room": "комната",
    "Assemble Room cancelled; the scene is unchanged": "Сборка комнаты отменена; сцена не изменилась",
    "Detect Sockets cancelled; the kit is unchanged": "Определение разъёмов отменено; набор не изменился",
    "Tile {number:,} of {count:,}: {name}": "Плитка {number:,} из {count:,}: {name}",
    "No tile to label: the kit is empty or nothing is selected":
        "Нет плиток для разметки: набор пуст или ничего не выделено",
    "No kit: pick the kit collection in the Tile Rooms panel":
        "Нет набора: выберите коллекцию набора на панели «Комнаты из плиток»",
    # -- tile rooms: reports and labels (operators/rooms.py, panels/rooms.py) ------------------------------
    'Cleared {count:,} tile(s) of "{name}"': "Удалено плиток комнаты «{name}»: {count:,}",
    "{name} ({distance:.1f} cm)": "{name} ({distance:.1f} см)",
    "{count} tile(s) reach outside their {x:g} × {y:g} × {z:g} cell "
    "(origin at the centre of the bottom face?): {listed}":
        "Плиток, выходящих за свою ячейку {x:g} × {y:g} × {z:g}: {count} "
        "(начало координат в центре нижней грани?): {listed}",
    "Labelled {tiles} tile(s) with {sockets} distinct socket(s); cell {x:g} × {y:g} × {z:g}":
        "Размечено плиток: {tiles}, различных разъёмов: {sockets}; ячейка {x:g} × {y:g} × {z:g}",
    'Kit "{name}": {count} tiles in {seconds:.2f} s': "Набор «{name}» создан за {seconds:.2f} с, плиток: {count}",
    "(pick a tile)": "(выберите плитку)",
    "{rotation}°  ({x}, {y}, {z})": "{rotation}°  ({x}, {y}, {z})",
    'Custom property "{key}" wins:': "Действует пользовательское свойство «{key}»:",
    "{side}: {label}": "{side}: {label}",
    '{setting}: custom property "{key}" wins': "{setting}: действует пользовательское свойство «{key}»",
    "Placed: {tile} at {cell}, {rotation}°": "Размещена: {tile} в ячейке {cell}, {rotation}°",
    # -- tile rooms: results and errors (scene/room_job.py, scene/room_kit.py) -----------------------------
    "{name}: {placed:,} tiles placed ({kinds} kinds) in {seconds:.2f} s (solve {solve:.2f} s, "
    "build {build:.2f} s), {restarts} restart(s), {backtracks} backtrack(s)":
        "{name}: размещено плиток: {placed:,} (видов: {kinds}) за {seconds:.2f} с (решение {solve:.2f} с, "
        "построение {build:.2f} с), перезапусков: {restarts}, откатов: {backtracks}",
    "kit: name the collection that holds the tiles": "набор: укажите коллекцию, в которой лежат плитки",
    "size: give three whole cell counts (x, y, z), got {size}":
        "размер: задайте три целых числа ячеек (x, y, z), получено {size}",
    "size must be ≥ 1 along x, y and z, got {size}": "размер должен быть ≥ 1 по x, y и z, получено {size}",
    "{name}: expected a whole number ≥ 0, got {value!r}": "{name}: ожидается целое число ≥ 0, получено {value!r}",
    "time limit: expected seconds > 0, got {value!r}": "лимит времени: ожидается число секунд > 0, получено {value!r}",
    "Preparing {cells:,} cells": "Подготовка ячеек: {cells:,}",
    "Starting the solver": "Запуск решателя",
    "Attempt {attempt}: {decided:,} of {cells:,} cells decided":
        "Попытка {attempt}: решено ячеек {decided:,} из {cells:,}",
    "Placing tiles: {done:,} of {total:,}": "Расстановка плиток: {done:,} из {total:,}",
    "Counts": "Количества",
    "How often tiles may appear, all turns together: TILE=N or TILE=MIN..MAX (MAX * for no limit) separated by "
    "';', e.g. \"entrance=1; stairs=0..4\"":
        "Сколько раз могут встречаться плитки (все повороты вместе): ПЛИТКА=N или ПЛИТКА=МИН..МАКС (МАКС * — без "
        "ограничения) через «;», например «entrance=1; stairs=0..4»",
    "room name: give the output collection a name": "имя комнаты: задайте имя выходной коллекции",
    "origin: give three numbers (x, y, z), got {origin}":
        "начало: задайте три числа (x, y, z), получено {origin}",
    "heuristic: use one of {options}, got {value!r}": "эвристика: используйте одно из {options}, получено {value!r}",
    "fixed tile {tile!r}: rotation must be 0, 90, 180 or 270":
        "закреплённая плитка {tile!r}: поворот должен быть 0, 90, 180 или 270",
    "fixed tile {tile!r}: cell {cell} is outside the grid {size}":
        "закреплённая плитка {tile!r}: ячейка {cell} лежит вне сетки {size}",
    "fixed: write TILE[@ROTATION] X Y Z separated by ';', e.g. \"Door@90 0 5 0\"; cannot read {item!r}":
        "закреплённые плитки: пишите ПЛИТКА[@ПОВОРОТ] X Y Z через «;», например «Door@90 0 5 0»; "
        "не удалось прочитать {item!r}",
    "fixed tile {tile!r} is not in the kit (or fits no Below/Above label)":
        "закреплённой плитки {tile!r} нет в наборе (или она не подходит ни к одной метке «Снизу»/«Сверху»)",
    "fixed tile {tile!r}: rotation {rotation} is not among its allowed rotations {allowed}":
        "закреплённая плитка {tile!r}: поворота {rotation} нет среди её разрешённых поворотов {allowed}",
    "Fixed tiles {tile!r} at {cell} and {other_tile!r} at {other_cell} cannot touch: "
    "side {side} {label!r} does not fit side {other_side} {other_label!r}; move one or pick another tile or turn":
        "Закреплённые плитки {tile!r} в {cell} и {other_tile!r} в {other_cell} не могут стоять рядом: "
        "сторона {side} {label!r} не подходит к стороне {other_side} {other_label!r}; передвиньте одну из них "
        "или выберите другую плитку или поворот",
    'There is no collection named "{name}": pick the kit collection':
        "Нет коллекции с именем «{name}»: выберите коллекцию набора",
    "no tile fits Below {below!r} and Above {above!r}; change those labels":
        "ни одна плитка не подходит к меткам «Снизу» {below!r} и «Сверху» {above!r}; измените эти метки",
    'Kit "{name}": {error}': "Набор «{name}»: {error}",
    "Cell size {size}: turned tiles need square cells (x = y); set equal sizes or allow only 0° and 180°":
        "Размер ячейки {size}: повёрнутым плиткам нужны квадратные ячейки (x = y); задайте равные размеры "
        "или разрешите только 0° и 180°",
    "Border {labels!r}: no tile has a {side} side that fits it; change the border label":
        "Граница {labels!r}: ни у одной плитки нет стороны {side}, которая к ней подходит; измените метку границы",
    "fixed tiles: cell {cell} is given two different tiles ({tile!r} and {other_tile!r})":
        "закреплённые плитки: ячейке {cell} заданы две разные плитки ({tile!r} и {other_tile!r})",
    "No room found: {error}": "Не удалось собрать комнату: {error}",
    'Tile "{name}" has no sockets: set them in Object Properties › Strew Tile, run Detect Sockets, '
    "or give it a custom property {key}":
        "У плитки «{name}» нет разъёмов: задайте их в «Свойства объекта › Плитка Strew», запустите "
        "«Определить разъёмы» или добавьте ей пользовательское свойство {key}",
    'Tile "{name}": no rotation allowed; tick at least one in Object Properties › Strew Tile':
        "Плитка «{name}»: не разрешён ни один поворот; отметьте хотя бы один в «Свойства объекта › Плитка Strew»",
    'Kit "{name}": cannot tell the cell size from the tiles (no geometry with a width); '
    "untick Cell Size from Kit and set it":
        "Набор «{name}»: по плиткам не удаётся определить размер ячейки (нет геометрии с шириной); "
        "снимите флажок «Размер ячейки из набора» и задайте его вручную",
    "No kit: pick the collection that holds the tiles": "Нет набора: выберите коллекцию, в которой лежат плитки",
    'Kit "{name}" is empty: add tile objects (or build the demo kit)':
        "Набор «{name}» пуст: добавьте объекты-плитки (или создайте демо-набор)",
    "Cell Size must be three sizes > 0, got {size!r}":
        "Размер ячейки должен состоять из трёх размеров > 0, получено {size!r}",
    # -- presets -------------------------------------------------------------------------------------------
    "Load Layer Preset": "Загрузить пресет слоёв",
    "Layer Presets": "Пресеты слоёв",
    "Save Layers as Preset…": "Сохранить слои как пресет…",
    "Add the layers of a preset (a shipped biome or one you saved) to this scene":
        "Добавить в сцену слои пресета (готового биома или сохранённого вами)",
    "Preset": "Пресет",
    "Replace Layers": "Заменить слои",
    "Remove this scene's layers first": "Сначала удалить слои этой сцены",
    "Save Layer Preset": "Сохранить пресет слоёв",
    "Save this scene's scatter layers as a preset, to load in any file":
        "Сохранить слои разброса этой сцены как пресет, чтобы загрузить его в любом файле",
    "Overwrite": "Перезаписать",
    "Replace a preset of the same name": "Заменить пресет с тем же именем",
    "Add a scatter layer first": "Сначала добавьте слой разброса",
    "Saved preset '{name}' ({count} layers)": "Пресет «{name}» сохранён (слоёв: {count})",
    "Loaded preset '{name}': {layers}": "Пресет «{name}» загружен: {layers}",
    "No preset named '{name}'": "Нет пресета с именем «{name}»",
    "Not in this file, left empty: {names}": "Нет в этом файле, оставлено пустым: {names}",
    "There are no layers to save: add a layer first": "Нет слоёв для сохранения: сначала добавьте слой",
    "{where}: expected an integer, got {value!r}": "{where}: ожидалось целое число, получено {value!r}",
    "{where}: expected a number, got {value!r}": "{where}: ожидалось число, получено {value!r}",
    "{where}: settings of type {kind} are not part of presets": "{where}: настройки типа {kind} не входят в пресеты",
    "Preset name {name!r}: use 1–64 letters, digits, spaces, '.', '-', '_' or brackets":
        "Имя пресета {name!r}: используйте 1–64 буквы, цифры, пробелы, «.», «-», «_» или скобки",
    "Preset '{name}' exists: choose another name or turn on Overwrite":
        "Пресет «{name}» уже есть: выберите другое имя или включите «Перезаписать»",
    '{file} is not a Strew layer preset (no "format": "{format}")':
        '{file} — не пресет слоёв Strew (нет "format": "{format}")',
    "{file} is preset version {found!r}; this Strew reads {version}":
        "{file} — пресет версии {found!r}; эта версия Strew читает {version}",
    '{file}: "layers" must be a non-empty list of objects': '{file}: "layers" должен быть непустым списком объектов',
    "layer {number} ('{name}'), setting '{key}'": "слой {number} («{name}»), настройка «{key}»",
    "Preset {file} cannot be read ({reason}): pick another file":
        "Пресет {file} не читается ({reason}): выберите другой файл",
    "{where}: expected a list of settings {{…}}": "{where}: ожидался список настроек {{…}}",
    '{where}: expected null or a data-block {{"id": …, "name": …}}':
        '{where}: ожидалось null или блок данных {{"id": …, "name": …}}',
    "{where}: expected true or false, got {value!r}": "{where}: ожидалось true или false, получено {value!r}",
    "{where}: {value!r} is outside {low:g} … {high:g}": "{where}: {value!r} вне диапазона {low:g} … {high:g}",
    "{where}: expected text, got {value!r}": "{where}: ожидался текст, получено {value!r}",
    "{where}: expected one of {names}, got {value!r}": "{where}: ожидалось одно из {names}, получено {value!r}",
    "Delete Layer Preset": "Удалить пресет слоёв",
    "Delete one of your saved presets from disk (shipped biomes stay)":
        "Удалить с диска один из сохранённых вами пресетов (готовые биомы остаются)",
    "Rename Layer Preset": "Переименовать пресет слоёв",
    "Rename one of your saved presets (its file in Strew's user preset folder)":
        "Переименовать один из сохранённых вами пресетов (его файл в папке пользовательских пресетов Strew)",
    "Name of one of your saved presets": "Имя одного из сохранённых вами пресетов",
    "New Name": "Новое имя",
    "The preset's new name (also its file name)": "Новое имя пресета (оно же имя файла)",
    "Strew's user preset folder is unavailable (Strew is not installed as an extension)":
        "Папка пользовательских пресетов Strew недоступна (Strew не установлен как расширение)",
    "Delete '{name}' from disk? This cannot be undone.": "Удалить «{name}» с диска? Это нельзя отменить.",
    "Delete": "Удалить",
    "Rename Preset '{name}'": "Переименовать пресет «{name}»",
    "Rename": "Переименовать",
    "Deleted preset '{name}'": "Пресет «{name}» удалён",
    "Renamed preset '{old}' to '{new}'": "Пресет «{old}» переименован в «{new}»",
    "'{name}' ships with Strew: only presets you saved can be deleted or renamed":
        "«{name}» входит в поставку Strew: удалять и переименовывать можно только сохранённые вами пресеты",
    "Preset '{name}' is no longer in the preset folder (removed outside Blender?)":
        "Пресета «{name}» больше нет в папке пресетов (удалён вне Blender?)",
    "Preset {file} cannot be deleted ({reason}): check the folder's permissions":
        "Пресет {file} не удаляется ({reason}): проверьте права доступа к папке",
    "Preset {file} cannot be renamed ({reason}): check the folder's permissions":
        "Пресет {file} не переименовывается ({reason}): проверьте права доступа к папке",
    "Preset '{name}' already has that name: type a different one":
        "У пресета «{name}» уже это имя: введите другое",
    "A preset named '{name}' exists: choose another name": "Пресет с именем «{name}» уже есть: выберите другое имя",
    # -- tile rooms: output, Regenerate Box, Detect Sockets (scene/room_output.py, scene/room_edit.py) ----------
    "Instances": "Экземпляры",
    "One object per room: points instancing the tiles with Geometry Nodes (fast, light; the cell, tile and turn "
    "are point attributes)":
        "Один объект на комнату: точки, размещающие плитки через Geometry Nodes (быстро и легко; ячейка, плитка "
        "и поворот — атрибуты точек)",
    "Real Objects": "Настоящие объекты",
    "One linked duplicate per cell, to edit by hand (slow for large rooms)":
        "Одна связанная копия на ячейку, для ручной правки (медленно для больших комнат)",
    "How the room is written: one instancer object, or one real object per cell":
        "Как записывается комната: один объект-размножитель или по настоящему объекту на ячейку",
    "output: use {choices}, got {value!r}": "output: укажите {choices}, получено {value!r}",
    "From": "От",
    "First cell (x, y, z) of the box Regenerate Box re-solves":
        "Первая ячейка (x, y, z) блока, который пересобирает «Пересобрать блок»",
    "To": "До",
    "Last cell (x, y, z) of the box, included; the cells outside the box keep their tiles":
        "Последняя ячейка (x, y, z) блока, включительно; ячейки вне блока сохраняют свои плитки",
    "Regenerate Box": "Пересобрать блок",
    "Re-solve the cells of the box (From … To, inclusive) of the room Strew assembled; the cells around it keep "
    "their tiles and the new ones fit them":
        "Заново решить ячейки блока (От … До, включительно) собранной Strew комнаты; ячейки вокруг сохраняют "
        "свои плитки, а новые к ним подходят",
    "Assemble a room first": "Сначала соберите комнату",
    "{name}: regenerated {cells:,} cell(s), {changed:,} changed, in {seconds:.2f} s":
        "{name}: пересобрано ячеек: {cells:,}, изменено: {changed:,}, за {seconds:.2f} с",
    "Box {low} – {high} reaches outside the room of {size} cells; pick cells from (0, 0, 0) to {last}":
        "Блок {low} – {high} выходит за комнату из {size} ячеек; выберите ячейки от (0, 0, 0) до {last}",
    'There is no room "{name}" to regenerate: assemble it first':
        "Нет комнаты «{name}» для пересборки: сначала соберите её",
    "Tile {tile!r} at {cell} (turned {rotation}°) is no longer in the kit's rules; assemble the room again":
        "Плитки {tile!r} в {cell} (поворот {rotation}°) больше нет в правилах набора; соберите комнату заново",
    "The room has cells without a tile (edited by hand?); assemble it again":
        "В комнате есть ячейки без плитки (правка вручную?); соберите её заново",
    "Up and Down": "Верх и низ",
    "Also label the top and bottom from the geometry (off: they stay as set, since how storeys stack, through "
    "floors, stairs and voids, is rarely what the top and bottom faces show)":
        "Подписать по геометрии и верх с низом (выключено: они остаются как заданы, ведь то, как стыкуются "
        "этажи — через перекрытия, лестницы и пустоты, — редко видно по верхним и нижним граням)",
    "Import mxgmn XML": "Импорт XML mxgmn",
    "Import an mxgmn (WaveFunctionCollapse) simple-tiled XML tileset as a kit of flat 1 m tiles that keeps the "
    "tileset's own adjacency rules; pictures beside the XML become textures":
        "Импортировать набор плиток mxgmn (WaveFunctionCollapse, simple tiled XML) как набор плоских плиток 1 м "
        "с собственными правилами соседства; картинки рядом с XML становятся текстурами",
    "File Path": "Путь к файлу",
    "Filepath used for importing the file": "Путь к импортируемому файлу",
    "File Filter": "Фильтр файлов",
    "Room of {count:,} tiles as points (strew_cell, strew_tile, strew_rotation)":
        "Комната из {count:,} плиток в виде точек (strew_cell, strew_tile, strew_rotation)",
    "{tile}: {amount}": "{tile}: {amount}",
    "at least {low}": "не меньше {low}",
    "exactly {low}": "ровно {low}",
    "{low} to {high}": "от {low} до {high}",
    "Subset": "Подмножество",
    "Name of a <subset> of the tileset to use (empty: every tile)":
        "Имя подмножества (<subset>) набора (пусто: все плитки)",
    'Kit "{name}": {count} tiles from the mxgmn tileset': "Набор «{name}»: плиток из набора mxgmn: {count}",
    "Cannot read {path}: {error}": "Не удаётся прочитать {path}: {error}",
    "mxgmn tilesets are flat: set Size z to 1": "Наборы mxgmn плоские: задайте размер по z равным 1",
    "mxgmn tilesets have no socket labels: turn Closed Room off, and leave Fixed Tiles, Counts, Below and Above "
    "empty":
        "У наборов mxgmn нет меток разъёмов: выключите «Закрытая комната» и оставьте пустыми «Закреплённые "
        "плитки», «Количества», «Снизу» и «Сверху»",
    'Kit "{name}": the tileset\'s tiles {tiles} have no object; import the XML again':
        "Набор «{name}»: у плиток набора {tiles} нет объекта; импортируйте XML заново",
    # -- custom properties (scene/custom_props.py) ------------------------------------------------------------
    '"{name}": custom property {key} = {value} cannot be used; give {expected}':
        "«{name}»: пользовательское свойство {key} = {value} не подходит; укажите {expected}",
    "a number ≥ 0, e.g. 1.5": "число ≥ 0, например 1.5",
    '{layer}: "{collection}" is what Strew made; pick the collection whose objects it should place':
        "{layer}: «{collection}» создана Strew; выберите коллекцию, объекты которой он должен расставлять",
    "a dict of side -> label, e.g. n: wall, e: door, s: wall, w: open":
        "словарь сторона -> метка, например n: wall, e: door, s: wall, w: open",
    "a list of turns in degrees from 0, 90, 180, 270, e.g. [0, 90]":
        "список поворотов в градусах из 0, 90, 180, 270, например [0, 90]",
    "True or False (1 or 0)": "True или False (1 или 0)",
    'a list of sides from n, e, s, w, up, down, e.g. ["n", "s"]':
        'список сторон из n, e, s, w, up, down, например ["n", "s"]',
    "three sizes > 0 (x, y, z), e.g. [4.0, 4.0, 3.0]": "три размера > 0 (x, y, z), например [4.0, 4.0, 3.0]",
    "three whole numbers ≥ 1 (cells along x, y, z), e.g. [2, 2, 1]":
        "три целых числа ≥ 1 (ячеек по x, y, z), например [2, 2, 1]",
    'a dict of cell "i,j,k" -> {side: label}, e.g. {"1,0,0": {"e": "door"}}':
        'словарь ячейка «i,j,k» -> {side: label}, например {"1,0,0": {"e": "door"}}',
    'Tile "{name}" spans {cells:.2f} cells along {axis} ({extent:.3g} m over cells of {cell:.3g} m): make it a whole '
    'number of cells or give it the custom property {key}, e.g. [2, 2, 1]':
        'Плитка «{name}» занимает {cells:.2f} ячейки по {axis} ({extent:.3g} м при ячейках {cell:.3g} м): сделайте её '
        'размером в целое число ячеек или задайте ей пользовательское свойство {key}, например [2, 2, 1]',
    '"a=b, c=d" or a list of label pairs, e.g. [["door", "arch"]]':
        "«a=b, c=d» или список пар меток, например [[\"door\", \"arch\"]]",
    # -- camera, display, variety, proximity, keep-away rules ----------------------------------------------
    "Add Keep-Away Rule": "Добавить правило отступа",
    "Keep the active layer a set distance from one earlier layer":
        "Держать активный слой на заданном расстоянии от одного из верхних слоёв",
    "Remove Keep-Away Rule": "Удалить правило отступа",
    "Remove the active layer's selected keep-away rule": "Удалить выбранное правило отступа активного слоя",
    "Keep Away per Layer": "Отступ по слоям",
    "Variety": "Разнообразие",
    "Proximity": "Близость",
    "Camera": "Камера",
    "Viewport Display": "Вид во вьюпорте",
    "An earlier layer to keep away from": "Верхний слой, от которого держать отступ",
    "Distance": "Расстояние",
    "Minimum distance from that layer's instances": "Наименьшее расстояние до экземпляров того слоя",
    "Keep-Away Rules": "Правила отступа",
    "Active Rule": "Активное правило",
    "Curves and meshes (seen from above) whose distance changes the density":
        "Кривые и меши (вид сверху), расстояние до которых меняет плотность",
    "Effect": "Действие",
    "Whether instances gather near the objects or avoid them": "Собираются ли экземпляры у объектов или избегают их",
    "Attract": "Притяжение",
    "Denser near the objects, thinning out with distance (grass by water)":
        "Гуще у объектов, реже с расстоянием (трава у воды)",
    "Repel": "Отталкивание",
    "Sparser near the objects, full density far away (trees thinning near roads)":
        "Реже у объектов, полная плотность вдали (деревья редеют у дорог)",
    "Near": "Близко",
    "Up to this distance the effect is full": "До этого расстояния действие полное",
    "Far": "Далеко",
    "From this distance on there is no effect; between Near and Far it fades smoothly":
        "Начиная с этого расстояния действия нет; между «Близко» и «Далеко» оно плавно убывает",
    "Random Tilt": "Случайный наклон",
    "Lean each instance by a random angle up to this, in a random direction":
        "Наклонять каждый экземпляр на случайный угол до этого, в случайную сторону",
    "Scale by Density": "Масштаб от плотности",
    "Smaller instances where the density is low (1: down to 5 % of the size at zero density)":
        "Меньше экземпляры там, где плотность низкая (1: до 5 % размера при нулевой плотности)",
    "Scale by Slope": "Масштаб от уклона",
    "Smaller instances on steep ground (1: down to 5 % of the size on a vertical wall)":
        "Меньше экземпляры на крутых склонах (1: до 5 % размера на отвесной стене)",
    "How instances are drawn in the viewport (renders always show them in full)":
        "Как экземпляры рисуются во вьюпорте (в рендере всегда полностью)",
    "Full": "Полностью",
    "Draw every instance with its own geometry": "Рисовать каждый экземпляр с его геометрией",
    "Bounds": "Габариты",
    "Draw each instance as its prefab's bounding box (fast for heavy prefabs)":
        "Рисовать каждый экземпляр габаритным ящиком префаба (быстро для тяжёлых префабов)",
    "Points": "Точки",
    "Draw only a point per instance (fastest)": "Рисовать только точку на экземпляр (быстрее всего)",
    "Viewport Share": "Доля во вьюпорте",
    "Share of the instances drawn in the viewport (renders always show all)":
        "Доля экземпляров, рисуемых во вьюпорте (в рендере всегда все)",
    "Camera Culling": "Отсечение камерой",
    "Place instances only where the camera can see them (plus a margin)":
        "Размещать экземпляры только там, где их видит камера (плюс запас)",
    "Camera to cull to; empty uses the scene camera": "Камера для отсечения; пусто — камера сцены",
    "Also keep instances this close to the edge of the view (crowns reaching into the frame, shadows)":
        "Оставлять и экземпляры на таком расстоянии от края кадра (кроны, заходящие в кадр, тени)",
    "Clip Distance": "Дальность",
    "No instances farther than this from the camera (0: no limit)":
        "Нет экземпляров дальше этого расстояния от камеры (0: без предела)",
    "Distance Falloff": "Спад с расстоянием",
    "Thin instances out with distance from the camera, toward Max Radius spacing":
        "Разрежать экземпляры с удалением от камеры, до шага «Макс. радиус»",
    "Falloff Start": "Начало спада",
    "Full density up to this distance from the camera": "Полная плотность до этого расстояния от камеры",
    "Falloff End": "Конец спада",
    "Density reaches Far Density at this distance and stays there":
        "На этом расстоянии плотность доходит до «Плотности вдали» и дальше не меняется",
    "Far Density": "Плотн. вдали",
    "Share of the density that remains far from the camera": "Доля плотности, остающаяся вдали от камеры",
    "Only a layer below another one can keep away from it": "Держать отступ может только слой под другим слоем",
    "The active layer has no keep-away rule": "У активного слоя нет правил отступа",
    'proximity collection "{name}" has no curves or meshes': "в коллекции близости «{name}» нет кривых и мешей",
    "Camera culling or falloff is on but there is no camera: set the scene camera or pick one in the layer's "
    "Camera settings":
        "Отсечение или спад камерой включены, но камеры нет: задайте камеру сцены или выберите её "
        "в настройках «Камера» слоя",
    "A keep-away rule names the layer itself; its own spacing already applies":
        "Правило отступа указывает на сам слой; его собственный шаг уже действует",
    'Camera "{name}" is panoramic: camera culling needs a perspective or orthographic camera':
        "Камера «{name}» панорамная: для отсечения нужна перспективная или ортографическая камера",
    "Proximity Far ({far:g}) must be beyond Near ({near:g})":
        "«Далеко» близости ({far:g}) должно быть больше «Близко» ({near:g})",
    "Falloff End ({end:g}) must be beyond Falloff Start ({start:g})":
        "«Конец спада» ({end:g}) должен быть дальше «Начала спада» ({start:g})",
    'Keep-away rule: "{other}" is not a layer above this one (layers only keep away from earlier layers)':
        "Правило отступа: «{other}» — не слой выше этого (отступ держат только от верхних слоёв)",
    # -- paint brush ---------------------------------------------------------------------------------------
    "Paint Instances": "Рисовать экземпляры",
    "Paint instances of the active layer on the terrain with its spacing and masks; Ctrl erases":
        "Рисовать экземпляры активного слоя на ландшафте с его шагом и масками; Ctrl стирает",
    "Layer to paint (-1: the active layer)": "Слой для рисования (-1: активный слой)",
    "Brush Radius": "Радиус кисти",
    "Radius of the brush on the terrain": "Радиус кисти на ландшафте",
    "Erase": "Стирать",
    "Remove instances instead of adding them": "Удалять экземпляры вместо добавления",
    "Stroke": "Мазок",
    "Paint Brush": "Кисть",
    "Location": "Положение",
    "Pick a terrain and add a layer first": "Сначала выберите ландшафт и добавьте слой",
    "Paint from the 3D Viewport": "Рисуйте во вьюпорте 3D",
    "Painting cancelled; the layer is as it was": "Рисование отменено; слой остался прежним",
    "Paint {layer}: drag to paint, Ctrl+drag to erase, [ ] brush {radius:.1f} m, Enter or right-click to finish, "
    "Esc to cancel":
        "Рисование {layer}: тяните — рисовать, Ctrl+тяните — стирать, [ ] кисть {radius:.1f} м, "
        "Enter или правый щелчок — готово, Esc — отмена",
    "Painting changed {count:,} instances": "Рисование изменило экземпляров: {count:,}",
    "Ctrl+drag erases": "Ctrl+тяните — стереть",
    "Painted ones stay on Scatter": "Нарисованное остаётся при разбросе",
    'Layer "{name}": painting needs the Point Instancer output':
        "Слой «{name}»: для рисования нужен вывод «Точечный инстансер»",
    "Erased {count:,} instances": "Стёрто экземпляров: {count:,}",
    "Painted {count:,} instances": "Нарисовано экземпляров: {count:,}",
    # -- every face, targets, live update ------------------------------------------------------------------
    "Surface": "Поверхность",
    "Where on the targets this layer places instances": "Где на целях этот слой размещает экземпляры",
    "From Above": "Сверху",
    "What a ray from straight above hits first (a terrain)": "То, во что первым попадает луч сверху (ландшафт)",
    "Every Face": "Все грани",
    "Every face of the targets, walls and undersides too; instances stand along the face normal and keep their "
    "spacing in 3-D":
        "Все грани целей, включая стены и нижние стороны; экземпляры стоят по нормали грани и держат расстояние "
        "в 3D",
    "Targets": "Цели",
    "Collection whose meshes (with modifiers and transforms) this layer scatters on; empty: the terrain":
        "Коллекция, по мешам которой (с модификаторами и трансформациями) разбрасывает этот слой; пусто: ландшафт",
    "Min Slope": "Мин. уклон",
    "Every Face: no instances where the surface is less steep than this (90° walls, above 90° undersides)":
        "Все грани: нет экземпляров там, где поверхность положе этого (90° стены, больше 90° нижние стороны)",
    "Live Update": "На лету",
    "Re-scatter the affected layers a moment after a target, a density or mask source or a Scatter setting "
    "changes":
        "Заново разбросать затронутые слои вскоре после изменения цели, источника плотности или маски либо "
        "настройки разброса",
    "{kind} \"{name}\": {error}": "{kind} «{name}»: {error}",
    'Targets "{name}" hold no mesh with faces: add meshes to the collection or clear Targets to use the terrain':
        "В целях «{name}» нет меша с гранями: добавьте меши в коллекцию или очистите цели, чтобы использовать "
        "ландшафт",
    'Layer "{name}": vertex groups are read from the terrain; pick a terrain or another density and mask':
        "Слой «{name}»: группы вершин читаются с ландшафта; выберите ландшафт или другую плотность и маску",
    "{layer}: Min Slope is above Max Slope": "{layer}: мин. уклон больше макс. уклона",
    "Strew live update: {error}": "Живое обновление Strew: {error}",
    'Layer "{name}": the brush paints From Above on the terrain; set the layer\'s Surface to From Above and '
    "clear its Targets":
        "Слой «{name}»: кисть рисует сверху по ландшафту; установите поверхность слоя «Сверху» и очистите "
        "«Цели»",
    # -- curve layers (Along Curves) ---------------------------------------------------------------------
    "Along Curves": "Вдоль кривых",
    "Curve": "Кривая",
    "A curve object this layer follows instead of covering the terrain (every spline of it)":
        "Объект-кривая, вдоль которой идёт слой вместо всего рельефа (все её сплайны)",
    "Curves": "Кривые",
    "A collection of curve objects this layer follows (with the Curve above, if any)":
        "Коллекция объектов-кривых, вдоль которых идёт слой (вместе с кривой выше, если она есть)",
    "Along": "Вдоль",
    "How instances follow the curves": "Как экземпляры следуют кривым",
    "Spaced": "С интервалом",
    "As many instances along the curves as the spacing allows, none closer (hedgerows, trees along a road)":
        "Столько экземпляров вдоль кривых, сколько позволяет расстояние, и не ближе (живые изгороди, деревья "
        "вдоль дороги)",
    "Fixed Step": "Постоянный шаг",
    "An instance every Step along each curve, one at each end (fence posts, lamps); Jitter moves them along the "
    "curve":
        "Экземпляр через каждый шаг вдоль каждой кривой, по одному на концах (столбы забора, фонари); разброс "
        "сдвигает их вдоль кривой",
    "Band": "Полоса",
    "Scatter over a band of the surface on both sides of the curves (verges, riverbanks), spaced as any layer":
        "Разброс по полосе поверхности по обе стороны кривых (обочины, берега) с расстоянием, как у любого слоя",
    "Stand": "Стоять",
    "Where the instances stand": "Где стоят экземпляры",
    "On Surface": "На поверхности",
    "Stand on the terrain (or targets) under the curve: its height and normal; spacing measured from above":
        "Стоять на рельефе (или целях) под кривой: его высота и нормаль; расстояние измеряется сверху",
    "On Curve": "На кривой",
    "Stand on the curve itself, wherever it goes (cables, bridges, rails); spacing measured in 3-D":
        "Стоять на самой кривой, куда бы она ни шла (провода, мосты, рельсы); расстояние измеряется в 3D",
    "Step": "Шаг",
    "Distance along the curve between two instances (a closed curve takes the nearest step that goes round it "
    "evenly)":
        "Расстояние вдоль кривой между двумя экземплярами (замкнутая кривая берёт ближайший шаг, который "
        "обходит её ровно)",
    "Jitter": "Разброс",
    "Move each instance along the curve by up to this share of the step (0: exact posts)":
        "Сдвигать каждый экземпляр вдоль кривой не более чем на эту долю шага (0: точные столбы)",
    "Width": "Ширина",
    "How far the band reaches on each side of the curve (seen from above)":
        "Насколько полоса простирается по каждую сторону кривой (вид сверху)",
    "Offset": "Смещение",
    "Follow a line this far to the left of the curve (negative: to the right), seen from above":
        "Идти по линии на таком расстоянии слева от кривой (отрицательное: справа), вид сверху",
    "Both Sides": "С обеих сторон",
    "Follow the line at Offset on the left and the one as far on the right (an alley)":
        "Идти по линии на смещении слева и по такой же справа (аллея)",
    "Turn Along Curve": "Поворот по кривой",
    "Turn each instance so its +X runs along the curve (on the curve: its climb too)":
        "Поворачивать каждый экземпляр так, чтобы его +X шёл вдоль кривой (на кривой: и по её подъёму)",
    'Curve "{name}" is a {kind}, not a curve: pick a curve object':
        'Кривая «{name}» — это {kind}, а не кривая: выберите объект-кривую',
    'collection "{name}" holds no curve object: add the curves to follow':
        'в коллекции «{name}» нет объектов-кривых: добавьте кривые, вдоль которых идти',
    "a layer that follows curves places From Above: set Surface to From Above":
        "слой вдоль кривых размещает сверху: выберите «Сверху» в поле Поверхность",
    "a band along curves needs a Width above 0": "полосе вдоль кривых нужна ширина больше 0",
    "a layer follows curves or stands on another layer, not both: clear On Layer or its curves":
        "слой идёт вдоль кривых или стоит на другом слое, но не то и другое: очистите «На слое» или его кривые",
    "Curves: {error}": "Кривые: {error}",
    'Layer "{name}" follows its curves: edit the curves (or its Seed) instead of painting; a Band layer can be '
    "painted":
        "Слой «{name}» идёт вдоль кривых: правьте кривые (или его зерно) вместо рисования; слой-полосу рисовать "
        "можно",
    'Curve "{name}"': 'Кривая «{name}»',
    'Curve "{name}" has a bevel or extrusion and a NURBS spline: Strew follows the centre of Bézier and poly '
    "splines there; set its bevel and extrusion to 0 or make the spline Bézier":
        "У кривой «{name}» есть фаска или выдавливание и сплайн NURBS: Strew следует центру сплайнов Безье и "
        "полилиний; обнулите фаску и выдавливание или сделайте сплайн Безье",
}
RUSSIAN.update({
    # -- the window: Spacing hints -------------------------------------------------------------------------
    "Uniform density uses Min Radius": "Равномерно: везде мин. радиус",
    "Uniform density uses Min Gap": "Равномерно: везде мин. зазор",
    "Cell": "Ячейка",
    # -- the status bar while Scatter runs -------------------------------------------------------------------
    "Sampling": "Расстановка точек",
    'Layer "{name}" ({number} of {total})': "Слой «{name}» ({number} из {total})",
    "Writing the output": "Запись результата",
    # -- Pick Box (operators/room_pick.py) -------------------------------------------------------------------
    "Pick Box": "Выбрать блок",
    "Click the box's first cell on the room in the viewport, then its last: From and To of Regenerate Box take "
    "the two cells (Esc keeps them as they were)":
        "Щёлкните в окне вида первую ячейку блока на комнате, затем последнюю: «От» и «До» блока получат эти "
        "две ячейки (Esc оставляет их как были)",
    "Pick the box from the 3D Viewport": "Выбирайте блок в окне 3D-вида",
    "Pick Box: click the first cell on the room, then the last; Esc to cancel":
        "Выбор блока: щёлкните первую ячейку на комнате, затем последнюю; Esc — отмена",
    "Pick Box works in the 3D Viewport: click its button there":
        "«Выбрать блок» работает в окне 3D-вида: нажмите кнопку там",
    "Pick Box cancelled; the box is as it was": "Выбор блока отменён; блок прежний",
    "Box {low} – {high}: {cells:,} cell(s)": "Блок {low} – {high}: ячеек {cells:,}",
    # -- Rescatter Region (operators/rescatter.py) ---------------------------------------------------------
    "Rescatter Region": "Заново разбросать область",
    "Sample a box (the selected object's bounds, else around the 3D cursor) or a circle (around the 3D cursor) of "
    "the active layer again with a new seed; the instances around it stay as they are and the new ones keep their "
    "distance from them":
        "Заново расставить активный слой в прямоугольнике (границы выделенного объекта, иначе вокруг 3D-курсора) "
        "или в круге (вокруг 3D-курсора) с новым зерном; экземпляры вокруг остаются как были, а новые держат от "
        "них расстояние",
    "Layer to rescatter (-1: the active layer)": "Слой для нового разброса (-1: активный слой)",
    "Shape": "Форма",
    "The region to sample again": "Область, которую расставить заново",
    "Box": "Прямоугольник",
    "An axis-aligned box in x and y: the selected object's bounds seen from above, else a square around the 3D "
    "cursor":
        "Прямоугольник вдоль осей x и y: границы выделенного объекта при виде сверху, иначе квадрат вокруг "
        "3D-курсора",
    "Circle": "Круг",
    "A circle around the 3D cursor": "Круг вокруг 3D-курсора",
    "A corner of the box (world x, y)": "Угол прямоугольника (мировые x, y)",
    "The opposite corner of the box (world x, y)": "Противоположный угол прямоугольника (мировые x, y)",
    "Box Size": "Размер прямоугольника",
    "Side of the square around the 3D cursor when no object is selected":
        "Сторона квадрата вокруг 3D-курсора, когда объект не выделен",
    "Centre": "Центр",
    "Centre of the circle (world x, y)": "Центр круга (мировые x, y)",
    "Radius": "Радиус",
    "Radius of the circle": "Радиус круга",
    "Seed of the new sample in the region (a new one each run; change it to try another)":
        "Зерно новой расстановки в области (каждый запуск — новое; измените, чтобы попробовать другое)",
    "Rescatter Box": "Заново в прямоугольнике",
    "Rescatter Circle": "Заново в круге",
    "Box: selected object or cursor": "Рамка: объект или курсор",
    "Circle: around the cursor": "Круг: вокруг курсора",
    "Empty region: the circle needs a finite centre and a radius above 0":
        "Пустая область: кругу нужны конечный центр и радиус больше 0",
    "Empty region: the box needs finite corners, a width and a depth":
        "Пустая область: прямоугольнику нужны конечные углы, ширина и глубина",
    'Layer "{name}" has no instances to rescatter: Scatter it first':
        "У слоя «{name}» нет экземпляров для нового разброса: сначала разбросайте его",
    "The region lies off the terrain: move it over the ground": "Область лежит вне ландшафта: переместите её на землю",
    'Nothing to rescatter: the region holds no instance of "{name}" and none fit there':
        "Нечего разбрасывать заново: в области нет экземпляров «{name}», и новые туда не помещаются",
    'Layer "{name}": replaced {removed:,} instances in the region with {added:,} (seed {seed})':
        "Слой «{name}»: экземпляры в области ({removed:,}) заменены новыми ({added:,}), зерно {seed}",
})

# -- tile rooms: entrances (properties/rooms.py, panels/rooms.py, operators/rooms.py, operators/room_pick.py,
#    core/wfc/room.py) ----------------------------------------------------------------------------------------------
RUSSIAN.update({
    "Entrances": "Входы",
    "Cells that must hold a walkable tile, all reachable from each other: with any entrance every walkable cell "
    "joins one region, as with All Walkable Connected":
        "Ячейки, в которых должна стоять проходимая плитка, все достижимые друг из друга: при любом входе все "
        "проходимые ячейки образуют одну область, как при «Проходы связаны»",
    "Cells that must hold a walkable tile, all reachable from each other: with any entrance every walkable cell "
    "joins one region, as with All Walkable Connected; X Y Z separated by ';' (replaces the panel's list)":
        "Ячейки, в которых должна стоять проходимая плитка, все достижимые друг из друга: при любом входе все "
        "проходимые ячейки образуют одну область, как при «Проходы связаны»; X Y Z через «;» (заменяет список на "
        "панели)",
    "Entrance cell (x, y, z) counted from the room origin; the same cell twice counts once":
        "Ячейка входа (x, y, z) от начала комнаты; одна и та же ячейка дважды считается один раз",
    "Add Entrance": "Добавить вход",
    "Active Entrance": "Активный вход",
    "Add an entrance: a cell that must hold a walkable tile, reachable from the other entrances (Pick Cell sets it "
    "on the room)":
        "Добавить вход: ячейку, в которой должна стоять проходимая плитка, достижимую из других входов (её можно "
        "указать на комнате кнопкой «Выбрать ячейку»)",
    "Remove Entrance": "Удалить вход",
    "Remove the selected entrance": "Удалить выбранный вход",
    "There is no entrance to remove": "Нет входа для удаления",
    "Entrances join all walkable cells": "Входы связывают все проходы",
    "({x}, {y}, {z})": "({x}, {y}, {z})",
    "({x}, {y}, {z}) is outside the room": "({x}, {y}, {z}) вне комнаты",
    "Pick Cell": "Выбрать ячейку",
    "Click a cell on the room in the viewport: the selected entrance takes it (a new entrance when none is "
    "selected; Esc keeps it as it was)":
        "Щёлкните ячейку на комнате в окне вида: выбранный вход получит её (новый вход, если ни один не выбран; "
        "Esc оставляет его как был)",
    "Pick the cell from the 3D Viewport": "Выбирайте ячейку в окне 3D-вида",
    "Pick Cell works in the 3D Viewport: click its button there":
        "«Выбрать ячейку» работает в окне 3D-вида: нажмите кнопку там",
    "Pick Cell: click the entrance's cell on the room; Esc to cancel":
        "Выбор ячейки: щёлкните ячейку входа на комнате; Esc — отмена",
    "Pick Cell cancelled; the entrance is as it was": "Выбор ячейки отменён; вход прежний",
    "Entrance {number}: cell {cell}": "Вход {number}: ячейка {cell}",
    "entrances: write each cell as X Y Z (whole numbers ≥ 0) separated by ';', e.g. \"0 5 0; 11 5 1\"; "
    "cannot read {item!r}":
        "входы: пишите каждую ячейку как X Y Z (целые числа ≥ 0) через «;», например «0 5 0; 11 5 1»; "
        "не удалось прочитать {item!r}",
    "entrance {cell}: give three whole numbers (x, y, z)": "вход {cell}: задайте три целых числа (x, y, z)",
    "entrance {cell} is outside the room of {size} cells; cells run from (0, 0, 0) to {last}":
        "вход {cell} лежит вне комнаты из {size} ячеек; ячейки идут от (0, 0, 0) до {last}",
    "Entrances need a walkable tile and the kit has none: tick Walkable on the floor, door and stair tiles "
    "(Strew Tile) or clear the Entrances":
        "Входам нужна проходимая плитка, а в наборе её нет: отметьте «Проходимая» у плиток пола, дверей и лестниц "
        "(«Плитка Strew») или очистите «Входы»",
    "Entrances need a walkable tile and the kit has none that fits Below and Above: tick Walkable on the floor, "
    "door and stair tiles (Strew Tile) or clear the Entrances":
        "Входам нужна проходимая плитка, а в наборе нет такой, что подходит к «Снизу» и «Сверху»: отметьте "
        "«Проходимая» у плиток пола, дверей и лестниц («Плитка Strew») или очистите «Входы»",
    "Entrance {cell} holds the fixed tile {tile!r}, which is not walkable; move the entrance or pin a walkable "
    "tile there":
        "Во входе {cell} закреплена плитка {tile!r}, а она непроходимая; передвиньте вход или закрепите там "
        "проходимую плитку",
    "Entrance {cell}: no walkable tile fits the room's border there; move the entrance or give the kit a walkable "
    "tile (a door) whose outer side fits the border":
        "Вход {cell}: там к границе комнаты не подходит ни одна проходимая плитка; передвиньте вход или добавьте в "
        "набор проходимую плитку (дверь), внешняя сторона которой подходит к границе",
    "mxgmn tilesets have no walkable tiles: leave Entrances empty":
        "В наборах mxgmn нет проходимых плиток: оставьте «Входы» пустыми",
})

# -- tile rooms: regions (properties/rooms.py, panels/rooms.py, operators/rooms.py, operators/room_pick.py,
#    scene/room_regions.py, core/wfc/room.py) ------------------------------------------------------------------
RUSSIAN.update({
    "Regions": "Области",
    "Boxes of cells or mesh volumes whose tiles are restricted or weighted (a cellar storey, a garden wing)":
        "Блоки ячеек или объёмы мешей, в которых плитки ограничены или взвешены иначе (подвальный этаж, садовое "
        "крыло)",
    "Active Region": "Активная область",
    "Add Region": "Добавить область",
    "Add a region: a box of cells (or a mesh volume) whose tiles are restricted or weighted":
        "Добавить область: блок ячеек (или объём меша), в котором плитки ограничены или взвешены иначе",
    "Remove Region": "Удалить область",
    "Remove the selected region": "Удалить выбранную область",
    "There is no region to remove": "Нет области для удаления",
    "Use this region (off: the room ignores it)": "Использовать эту область (выключено: комната её не учитывает)",
    "First cell (x, y, z) of the region's box": "Первая ячейка (x, y, z) блока области",
    "Last cell (x, y, z) of the region's box, included": "Последняя ячейка (x, y, z) блока области, включительно",
    "Volume": "Объём",
    "A closed mesh: the region is the room's cells whose centres lie inside it (From and To are then not used)":
        "Замкнутый меш: область — ячейки комнаты, центры которых лежат внутри него («От» и «До» тогда не "
        "используются)",
    "The tiles the region allows or weighs: TILE or TILE=FACTOR separated by commas, e.g. \"hedge=3, pond, "
    "stair=0\" (each tile with all its turns and mirrors)":
        "Плитки, которые область разрешает или взвешивает: ПЛИТКА или ПЛИТКА=МНОЖИТЕЛЬ через запятую, например "
        "«hedge=3, pond, stair=0» (каждая плитка со всеми поворотами и отражениями)",
    "Only These Tiles": "Только эти плитки",
    "Only the listed tiles may stand in the region (off: every tile may, the listed ones weighed by their factors)":
        "В области могут стоять только перечисленные плитки (выключено: любые, а перечисленные взвешены своими "
        "множителями)",
    "Factor on the weight of each listed tile that has no =FACTOR of its own (0: kept out of the region)":
        "Множитель веса каждой перечисленной плитки без собственного =МНОЖИТЕЛЬ (0: не ставится в области)",
    "From and To of Regenerate Box": "«От» и «До» пересборки блока",
    "From and To of the selected region (a new region when none is selected)":
        "«От» и «До» выбранной области (новая область, если ни одна не выбрана)",
    'Region "{name}": {low} – {high}, {cells:,} cell(s)': "Область «{name}»: {low} – {high}, ячеек {cells:,}",
    "{low} – {high}": "{low} – {high}",
    'Region "{region}": its volume "{name}" is not a mesh object of this file; pick a closed mesh':
        "Область «{region}»: её объём «{name}» не меш-объект этого файла; выберите замкнутый меш",
    'Region "{region}": the volume "{name}" holds no cell\'s centre of the room; move it over the room or make it '
    "larger":
        "Область «{region}»: в объёме «{name}» нет ни одного центра ячейки комнаты; передвиньте его на комнату или "
        "увеличьте",
    "Region {region!r}: write its tiles as TILE or TILE=FACTOR (a number ≥ 0) separated by commas, e.g. "
    "\"hedge=3, pond, stair=0\"; cannot read {item!r}":
        "Область {region!r}: пишите её плитки как ПЛИТКА или ПЛИТКА=МНОЖИТЕЛЬ (число ≥ 0) через запятую, например "
        "«hedge=3, pond, stair=0»; не удалось прочитать {item!r}",
    "region tiles: write TILE or TILE=FACTOR (a number ≥ 0) separated by commas, e.g. \"hedge=3, pond, stair=0\"; "
    "cannot read {item!r}":
        "плитки области: пишите ПЛИТКА или ПЛИТКА=МНОЖИТЕЛЬ (число ≥ 0) через запятую, например "
        "«hedge=3, pond, stair=0»; не удалось прочитать {item!r}",
    "Region {region!r}: give its corners as three whole numbers (x, y, z)":
        "Область {region!r}: задайте её углы тремя целыми числами (x, y, z)",
    "Region {region!r}: Weight must be a number ≥ 0, got {value!r}":
        "Область {region!r}: «Вес» должен быть числом ≥ 0, получено {value!r}",
    "Region {region!r}: weight factors must be numbers ≥ 0":
        "Область {region!r}: множители веса должны быть числами ≥ 0",
    "Region {region!r}: list the tiles it allows or weighs, e.g. \"hedge=3, pond\"":
        "Область {region!r}: перечислите плитки, которые она разрешает или взвешивает, например «hedge=3, pond»",
    "Region {region!r} allows no tile: every tile it lists has weight 0":
        "Область {region!r} не разрешает ни одной плитки: у всех перечисленных вес 0",
    "Region {region!r} changes nothing: tick Only These Tiles, or give its tiles a Weight other than 1":
        "Область {region!r} ничего не меняет: отметьте «Только эти плитки» или задайте её плиткам «Вес», отличный "
        "от 1",
    "Region {region!r}: its cells must lie in its box": "Область {region!r}: её ячейки должны лежать в её блоке",
    "regions: expected RoomRegion objects, got {kind}": "области: ожидаются объекты RoomRegion, получено {kind}",
    "Region {region!r}: its box {low} – {high} reaches outside the room of {size} cells; cells run from (0, 0, 0) "
    "to {last}":
        "Область {region!r}: её блок {low} – {high} выходит за комнату из {size} ячеек; ячейки идут от (0, 0, 0) "
        "до {last}",
    "Region {region!r}: no tile named {tile!r} in the kit (or it fits no Below/Above label)":
        "Область {region!r}: в наборе нет плитки {tile!r} (или она не подходит ни к одной метке «Снизу»/«Сверху»)",
    "Regions as NAME:X,Y,Z:X,Y,Z:TILES[:only][:weight=W] separated by ';', e.g. \"cellar:0,0,0:11,11,0:rock, "
    "vault=2:only\" (replaces the panel's list; empty: no regions; mesh volumes are set in the panel only)":
        "Области в виде ИМЯ:X,Y,Z:X,Y,Z:ПЛИТКИ[:only][:weight=W] через «;», например "
        "«cellar:0,0,0:11,11,0:rock, vault=2:only» (заменяет список панели; пусто: без областей; объёмы мешей "
        "задаются только в панели)",
    "region {item!r}: write {syntax}, e.g. {example!r}": "область {item!r}: пишите {syntax}, например {example!r}",
    "region {item!r}: the corner {corner!r} is not a cell; write X,Y,Z (three whole numbers ≥ 0), e.g. {example!r}":
        "область {item!r}: угол {corner!r} — не ячейка; пишите X,Y,Z (три целых числа ≥ 0), например {example!r}",
    "region {item!r}: {flag!r} is neither 'only' nor 'weight=W' (a number ≥ 0); write {syntax}":
        "область {item!r}: {flag!r} — ни «only», ни «weight=W» (число ≥ 0); пишите {syntax}",
})

# -- tile rooms: big tiles a room cannot hold (core/wfc/room_fit.py, core/wfc/room_regions.py) ---------------------
RUSSIAN.update({
    "{tile} ({cells}) left out: taller than the room's {storeys} storey(s)":
        "{tile} ({cells}) не использована: выше комнаты (этажей: {storeys})",
    "{tile} ({cells}) left out: wider than the room of {room} cells in every turn":
        "{tile} ({cells}) не использована: при любом повороте шире комнаты из {room} ячеек",
    "Tile {tile!r} covers {cells} cells and fits the room of {size} cells in none of its turns; make the room larger "
    "or take the tile out of the kit":
        "Плитка {tile!r} занимает {cells} ячеек и ни при одном повороте не помещается в комнату из {size} ячеек; "
        "увеличьте комнату или уберите плитку из набора",
    "Fixed tile {tile!r} covers {cells} cells and fits the room of {size} cells in none of its turns; make the room "
    "larger or unpin the tile":
        "Закреплённая плитка {tile!r} занимает {cells} ячеек и ни при одном повороте не помещается в комнату из {size} "
        "ячеек; увеличьте комнату или открепите плитку",
    "Counts ask for at least {minimum} of {tile!r}, which covers {cells} cells and fits the room of {size} cells in "
    "none of its turns; make the room larger or lower its count":
        "«Количество» требует не меньше {minimum} плиток {tile!r}, а она занимает {cells} ячеек и ни при одном "
        "повороте не помещается в комнату из {size} ячеек; увеличьте комнату или уменьшите её количество",
    "Region {region!r} allows only {tiles}, which fit the room of {size} cells in none of their turns; make the room "
    "larger or allow other tiles in the region":
        "Область {region!r} разрешает только {tiles}, а они ни при одном повороте не помещаются в комнату из {size} "
        "ячеек; увеличьте комнату или разрешите в области другие плитки",
})

# -- Export Level ----------------------------------------------------------------------------------------------
RUSSIAN.update({
    "Export Level": "Экспорт уровня",
    "Export the terrain, scatter layers and rooms: each mesh once, instanced, with Strew's per-instance values":
        "Экспортировать рельеф, все слои разброса и все комнаты: каждая сетка заготовки один раз, с инстансингом, "
        "где формат его поддерживает, и со значениями Strew для каждого экземпляра",
    "Filepath used for exporting the file": "Путь к файлу для экспорта",
    "Check Existing": "Проверять существующий",
    "Check and warn on overwriting existing files": "Предупреждать о перезаписи существующих файлов",
    "filter_glob": "filter_glob",
    "Format": "Формат",
    "The file format (the file name's extension follows it)": "Формат файла (расширение имени файла следует за ним)",
    "glTF Binary (.glb)": "glTF двоичный (.glb)",
    "glTF Separate (.gltf + .bin)": "glTF раздельный (.gltf + .bin)",
    "USD (.usdc)": "USD (.usdc)",
    "USD ASCII (.usda)": "USD текстовый (.usda)",
    "FBX (.fbx)": "FBX (.fbx)",
    "Only Strew": "Только Strew",
    "Only Strew's layers and rooms (and the terrain), not the other objects":
        "Только слои и комнаты Strew (и рельеф), без других объектов",
    "Only Selected": "Только выделенное",
    "Only the selected objects and the Strew outputs among them":
        "Только выделенные объекты и результаты Strew среди них",
    "Include the layers' terrains": "Включить рельефы слоёв",
    "Engine": "Движок",
    "Axis and unit preset of the engine the level goes to": "Оси и единицы движка, в который идёт уровень",
    "Blender": "Blender",
    "The exporter's own axes and units": "Оси и единицы самого экспортёра",
    "Unity": "Unity",
    "Y up, metres (FBX: Unity's usual settings)": "Y вверх, метры (FBX: обычные настройки для Unity)",
    "Godot": "Godot",
    "Y up, metres": "Y вверх, метры",
    "Unreal": "Unreal",
    "Z up, X forward": "Z вверх, X вперёд",
    "GPU Instancing": "GPU-инстансинг",
    "glTF: EXT_mesh_gpu_instancing (one node per prefab mesh) instead of one node per instance":
        "glTF: EXT_mesh_gpu_instancing (один узел на сетку заготовки) вместо узла на каждый экземпляр",
    "Export failed: {error}": "Экспорт не удался: {error}",
    "Exported {count:,} instances of {outputs} Strew outputs to {file} in {seconds:.1f} s":
        "Экспортировано {count:,} экземпляров из {outputs} результатов Strew в {file} за {seconds:.1f} с",
    "Strew Level (.glb, .usd, .fbx)": "Уровень Strew (.glb, .usd, .fbx)",
    "Blender's FBX exporter did not write \"{name}\"": "Экспортёр FBX Blender не записал «{name}»",
    "Nothing of Strew's to export: scatter a layer or assemble a room first (or export with Blender's own exporter)":
        "Нечего экспортировать из Strew: сначала разбросайте слой или соберите комнату (или экспортируйте "
        "собственным экспортёром Blender)",
    "Cannot export to \"{path}\": it is a folder; give a file name":
        "Нельзя экспортировать в «{path}»: это папка; укажите имя файла",
    "Cannot export to \"{path}\": the folder \"{folder}\" does not exist":
        "Нельзя экспортировать в «{path}»: папки «{folder}» не существует",
    "Cannot export to \"{path}\": it is not writable; choose another place":
        "Нельзя экспортировать в «{path}»: запись туда запрещена; выберите другое место",
    "\"{name}\" draws none of its {points} instances (its prefab collection or tiles are gone): scatter or assemble "
    "it again, or clear it, then export":
        "«{name}» не рисует ни одного из своих {points} экземпляров (его коллекция заготовок или плитки удалены): "
        "разбросайте или соберите его заново либо очистите, затем экспортируйте",
    "Cannot export to \"{path}\": it is not writable ({reason}); choose another place":
        "Нельзя экспортировать в «{path}»: запись туда невозможна ({reason}); выберите другое место",
    "Cannot export to \"{name}\": use one of the extensions {known}":
        "Нельзя экспортировать в «{name}»: используйте одно из расширений {known}",
    "This Blender was built without USD: export to .glb or .fbx instead":
        "Этот Blender собран без USD: экспортируйте в .glb или .fbx",
    "USD export needs the pxr module: pip install usd-core (into the Python that runs Blender)":
        "Для экспорта USD нужен модуль pxr: pip install usd-core (в Python, в котором работает Blender)",
})

RUSSIAN.update({
    "Preset {file} is nested too deep or holds a number too long to read: pick another file":
        "Пресет {file} вложен слишком глубоко или содержит слишком длинное число: выберите другой файл",
    "{where}: takes a {expected}, not the {found} '{name}': name a {expected}":
        "{where}: здесь нужен {expected}, а не {found} «{name}»: укажите {expected}",
    "Counts ask for at least {minimum} of {tile!r}, but its bottom or top fits no Below {below!r} / Above {above!r} "
    "label of a one-storey room; give the room more storeys, change those labels or lower its count":
        "«Количество» требует не меньше {minimum} плиток {tile!r}, но её низ или верх не подходит ни к метке «Снизу» "
        "{below!r}, ни к «Сверху» {above!r} одноэтажной комнаты; добавьте комнате этажей, смените эти метки или "
        "уменьшите её количество",
    "{name}: {far:,.0f} m from the world origin Blender draws and renders instances only to within {blur:.3g} m, "
    "{share:.2g}% of their {spacing:.3g} m spacing: move the terrain nearer the world origin for exact spacing":
        "{name}: в {far:,.0f} м от начала координат Blender рисует и рендерит экземпляры лишь с точностью "
        "{blur:.3g} м, {share:.2g}% их расстояния {spacing:.3g} м: для точного расстояния перенесите ландшафт ближе "
        "к началу координат",
})

# -- layers around and on other layers (properties/layer_relations.py, scene/layer_links.py, scene/layer_inputs/
#    around.py, on_layer.py, related.py, panels/scatter_relations.py, cli.py) -----------------------------------------
RUSSIAN.update({
    "Around": "Вокруг слоя",
    "Around Min": "Вокруг: от",
    "Around Max": "Вокруг: до",
    "Falloff": "Спад",
    "On Layer": "На слое",
    "Every face of its instances": "Все грани его экземпляров",
    "An earlier, enabled layer": "Включённый слой выше этого",
    "The id of the layer the link names, so the link follows it through a rename (set by Strew)":
        "Идентификатор слоя, на который указывает связь, чтобы связь сохранялась при переименовании (задаёт Strew)",
    "Place this layer only in a ring around the instances of an earlier layer (mushrooms at the feet of trees)":
        "Размещать этот слой только в кольце вокруг экземпляров слоя выше (грибы у подножия деревьев)",
    "Inner edge of the ring: the least distance from the nearest instance of that layer (between footprint edges "
    "when either layer is spaced by Object Size)":
        "Внутренний край кольца: наименьшее расстояние до ближайшего экземпляра того слоя (между краями "
        "отпечатков, если хотя бы один из слоёв разнесён по размеру объектов)",
    "Outer edge of the ring: the largest distance from the nearest instance of that layer":
        "Внешний край кольца: наибольшее расстояние до ближайшего экземпляра того слоя",
    "Densest at the ring's inner edge, thinning out to the layer's sparsest (Max Radius) at its outer edge":
        "Гуще всего у внутреннего края кольца, реже к внешнему краю — до самой редкой плотности слоя (Макс. радиус)",
    "Place this layer on every face of the instances of an earlier layer (moss on rocks), spaced in 3-D":
        "Размещать этот слой на всех гранях экземпляров слоя выше (мох на камнях), с расстоянием в 3D",
    "Around Max ({far:g}) is below Around Min ({near:g}): raise Around Max":
        "«Вокруг: до» ({far:g}) меньше, чем «Вокруг: от» ({near:g}): увеличьте «Вокруг: до»",
    'On Layer places on the instances of "{other}": clear Targets or On Layer':
        "«На слое» размещает на экземплярах «{other}»: очистите «Цели» или «На слое»",
    'On Layer "{other}": its instances draw no mesh faces: give its prefabs faces or clear On Layer':
        "«На слое» «{other}»: его экземпляры не рисуют ни одной грани сетки: дайте его префабам грани или "
        "очистите «На слое»",
    '{what} "{other}" has no instances yet: scatter "{other}" first (Scatter runs every layer)':
        "«{what}» «{other}»: у этого слоя ещё нет экземпляров: сначала разбросайте «{other}» (Разбросать "
        "запускает все слои)",
    '{what} "{other}" is below "{name}": move "{other}" above "{name}" (a layer goes around or on earlier layers '
    "only)":
        "«{what}» «{other}» стоит ниже «{name}»: переместите «{other}» выше «{name}» (слой ставится только вокруг "
        "или на слоях выше него)",
    '{what} "{other}" is disabled: enable "{other}" or clear {what}':
        "«{what}» «{other}» выключен: включите «{other}» или очистите «{what}»",
    '{what} "{other}" leads back to "{name}" (a cycle): clear {what} or the link of "{other}"':
        "«{what}» «{other}» ведёт обратно к «{name}» (цикл): очистите «{what}» или связь слоя «{other}»",
    '{what} names "{other}", which is no layer: pick an earlier layer or clear {what}':
        "«{what}» указывает на «{other}», но такого слоя нет: выберите слой выше или очистите «{what}»",
    "{what} names the layer itself: pick an earlier layer or clear {what}":
        "«{what}» указывает на сам этот слой: выберите слой выше или очистите «{what}»",
    "{where}: expected settings {{…}}": "{where}: ожидались настройки {{…}}",
    'Layer "{name}": farm tasks cannot place a layer around or on another layer; clear its Around and On Layer or '
    "run it without --chunks":
        "Слой «{name}»: задачи фермы не умеют ставить слой вокруг или на другом слое; очистите его «Вокруг слоя» и "
        "«На слое» или запустите его без --chunks",
})

# -- Proxy Beyond: viewport proxies by distance (properties/layer_look.py, panels/scatter_look.py) ----------------
RUSSIAN.update({
    "Proxy Beyond": "Прокси дальше",
    "Draw instances farther than Distance from the viewport's view (the scene camera where there is no 3D view) "
    "as a light proxy of their prefab; renders always show them in full":
        "Рисовать экземпляры дальше «Расстояния» от точки обзора вьюпорта (от камеры сцены, где нет 3D-вида) "
        "лёгким прокси их заготовки; рендер всегда показывает их полностью",
    "Instances up to this distance from the view are drawn in full, farther ones as proxies":
        "Экземпляры до этого расстояния от точки обзора рисуются полностью, дальние — прокси",
    "Proxy": "Прокси",
    "What a far instance is drawn as": "Чем рисуется дальний экземпляр",
    "A solid box the size of the prefab (fastest)": "Сплошной ящик размером с заготовку (быстрее всего)",
    "Convex Hull": "Выпуклая оболочка",
    "The prefab's convex hull: its outline, without hollows": "Выпуклая оболочка заготовки: её очертания без впадин",
    "Decimated": "Упрощённый",
    "A copy of the prefab with a share of its faces (Ratio)": "Копия заготовки с долей её граней («Доля»)",
    "Ratio": "Доля",
    "Share of the prefab's faces a Decimated proxy keeps": "Доля граней заготовки, которую сохраняет упрощённый прокси",
    "Proxies: Point Instancer output only": "Прокси: только вывод «Инстансер точек»",
})

# Tile Rooms: paths between chosen cells (loops, minimum length), the panel, the operator and their messages.
RUSSIAN.update({
    "Paths": "Пути",
    "Pairs of cells that must hold walkable tiles joined through walkable cells; other walkable pockets may stay "
    "sealed unless All Walkable Connected is on":
        "Пары ячеек, в которых должны стоять проходимые плитки, связанные через проходимые ячейки; остальные "
        "проходимые карманы могут остаться замкнутыми, если не включено «Все проходимые связаны»",
    "Pairs of cells that must hold walkable tiles joined through walkable cells; other walkable pockets may stay "
    "sealed unless All Walkable Connected is on; X,Y,Z:X,Y,Z separated by ';' (replaces the panel's list)":
        "Пары ячеек, в которых должны стоять проходимые плитки, связанные через проходимые ячейки; остальные "
        "проходимые карманы могут остаться замкнутыми, если не включено «Все проходимые связаны»; X,Y,Z:X,Y,Z "
        "через «;» (заменяет список панели)",
    "Loops": "Петли",
    "Whether the walkable cells joined to a path may form loops":
        "Могут ли проходимые ячейки, связанные с путём, образовывать петли",
    "Allowed": "Разрешены",
    "The walkable cells joined to a path may form loops":
        "Проходимые ячейки, связанные с путём, могут образовывать петли",
    "The walkable cells joined to a path form no loop: one way between any two of them":
        "Проходимые ячейки, связанные с путём, не образуют петель: между любыми двумя из них один путь",
    "Minimum Path Length": "Мин. длина пути",
    "Min Length": "Мин. длина",
    "Cells the shortest walk between a path's endpoints visits at least, both counted (0: no minimum)":
        "Сколько ячеек как минимум проходит кратчайший путь между концами пути, считая оба конца (0: без "
        "минимума)",
    "Pick Endpoints": "Выбрать концы",
    "Click a path's first endpoint on the room in the viewport, then its second: the selected path takes them (a "
    "new path when none is selected; Esc keeps it as it was)":
        "Щёлкните во вьюпорте первый конец пути на комнате, затем второй: их получает выбранный путь (новый путь, "
        "если ни один не выбран; Esc оставляет его как был)",
    "Add Path": "Добавить путь",
    "Add a path: two cells that must hold walkable tiles joined through walkable cells (Pick Endpoints sets them "
    "on the room)":
        "Добавить путь: две ячейки, в которых должны стоять проходимые плитки, связанные через проходимые ячейки "
        "(«Выбрать концы» задаёт их на комнате)",
    "Remove Path": "Удалить путь",
    "Remove the selected path": "Удалить выбранный путь",
    "First endpoint (x, y, z) counted from the room origin": "Первый конец (x, y, z), считая от начала комнаты",
    "Second endpoint (x, y, z) counted from the room origin": "Второй конец (x, y, z), считая от начала комнаты",
    "Active Path": "Активный путь",
    "Pick Endpoints: click the path's first cell on the room, then its second; Esc to cancel":
        "Выбрать концы: щёлкните первую ячейку пути на комнате, затем вторую; Esc — отмена",
    "Pick Endpoints cancelled; the path is as it was": "Выбор концов отменён; путь остался как был",
    "Path {number}: from {first} to {last}": "Путь {number}: от {first} до {last}",
    "Pick the endpoints from the 3D Viewport": "Выберите концы в 3D-вьюпорте",
    "Pick Endpoints works in the 3D Viewport: click its button there":
        "«Выбрать концы» работает в 3D-вьюпорте: нажмите кнопку там",
    "{start} → {end} is outside the room": "{start} → {end} вне комнаты",
    "{start} → {end}: give two different cells": "{start} → {end}: укажите две разные ячейки",
    "{start} → {end}": "{start} → {end}",
    "path: write {syntax}; cannot read {item!r} in {text!r}":
        "путь: пишите {syntax}; не удаётся прочитать {item!r} в {text!r}",
    "path: give two endpoints or more, as {syntax}; {text!r} has one":
        "путь: укажите два конца или больше, как {syntax}; в {text!r} один",
    "path {number}: give its endpoints as cells (x, y, z), got {path!r}":
        "путь {number}: укажите его концы как ячейки (x, y, z), получено {path!r}",
    "path {number}: endpoint {cell} needs three whole numbers (x, y, z)":
        "путь {number}: конец {cell} должен быть тремя целыми числами (x, y, z)",
    "path {number}: endpoint {cell} is outside the room of {size} cells; cells run from (0, 0, 0) to {last}":
        "путь {number}: конец {cell} лежит вне комнаты из {size} ячеек; ячейки идут от (0, 0, 0) до {last}",
    "path {number} needs two different endpoints, got {cells}; move one of them":
        "пути {number} нужны два разных конца, получено {cells}; передвиньте один из них",
    "minimum path length: expected a whole number of cells ≥ 0, got {value!r}":
        "минимальная длина пути: ожидается целое число ячеек ≥ 0, получено {value!r}",
    "Paths need a walkable tile and the kit has none: tick Walkable on the floor, door and stair tiles (Strew "
    "Tile) or clear the Paths":
        "Путям нужна проходимая плитка, а в наборе её нет: отметьте «Проходимая» у плиток пола, дверей и лестниц "
        "(Strew Tile) или очистите «Пути»",
    "mxgmn tilesets have no walkable tiles: leave Paths empty":
        "В наборах mxgmn нет проходимых плиток: оставьте «Пути» пустыми",
    "path {number}: no walkable tile fits the room's border at endpoint {cell}; move the endpoint inwards or "
    "give the kit a walkable tile whose outer side fits the border":
        "путь {number}: ни одна проходимая плитка не подходит к границе комнаты в конце {cell}; сдвиньте конец "
        "внутрь или дайте набору проходимую плитку, чья внешняя сторона подходит к границе",
    "path {number}: endpoint {cell} holds the fixed tile {tile!r}, which is not walkable; move the endpoint or pin "
    "a walkable tile there":
        "путь {number}: в конце {cell} стоит закреплённая плитка {tile!r}, она не проходимая; передвиньте конец "
        "или закрепите там проходимую плитку",
})

# -- tile rooms: separation, max run, symmetry (properties/rooms.py, panels/room_spread.py, core/wfc/room_spread.py) --
RUSSIAN.update({
    "Separation": "Разнесение",
    "Tiles kept apart: TILE=N separated by ';', N the least distance in cells between two of them (straight, centre "
    "to centre); names separated by commas keep apart from each other too, e.g. \"shrine=8; pillar, statue=3\"":
        "Плитки, держащиеся порознь: ПЛИТКА=N через «;», N — наименьшее расстояние в клетках между двумя такими "
        "(по прямой, от центра до центра); имена через запятую держатся порознь и друг от друга, например "
        "\"shrine=8; pillar, statue=3\"",
    "Max Run": "Макс. ряд",
    "Tiles never more than N in a row along x or y (each floor on its own): TILE=N separated by ';', names "
    "separated by commas counting together, e.g. \"wall=6\"":
        "Плиток не больше N подряд вдоль x или y (каждый этаж отдельно): ПЛИТКА=N через «;», имена через запятую "
        "считаются вместе, например \"wall=6\"",
    "Symmetry": "Симметрия",
    "The room mirrors itself across its middle (tiles placed as their mirror twins)":
        "Комната зеркальна относительно своей середины (плитки ставятся своими зеркальными двойниками)",
    "The room need not mirror itself": "Комната не обязана быть зеркальной",
    "The room mirrors itself across its middle in x: the tile at (x, y) is the mirror of the one at "
    "(width - 1 - x, y)":
        "Комната зеркальна относительно середины по x: плитка в (x, y) — зеркало плитки в (ширина - 1 - x, y)",
    "The room mirrors itself across its middle in y": "Комната зеркальна относительно середины по y",
    "The room mirrors itself across its middle in x and in y": "Комната зеркальна относительно середины по x и по y",
    "None": "Нет",
    "X": "X",
    "Y": "Y",
    "XY": "XY",
    "mxgmn tilesets: leave Separation and Max Run empty and Symmetry at None":
        "Наборы mxgmn: оставьте «Разнесение» и «Наибольший ряд» пустыми, а «Симметрию» — «Нет»",
    "{what}: no tile named {tile!r}; the kit has {known}":
        "{what}: нет плитки с именем {tile!r}; в наборе есть {known}",
    "separation: Counts ask for {least} of {tiles!r} and at most {most} can stand {distance} cells apart in a room "
    "of {size} cells; lower the counts or the distance, or enlarge the room":
        "Разнесение: «Количества» требуют {least} из {tiles!r}, а в комнате {size} клеток не более {most} могут "
        "стоять в {distance} клетках друг от друга; уменьшите количества или расстояние либо увеличьте комнату",
    "separation: fixed tiles {tile!r} at {cell} and {other!r} at {other_cell} are closer than {distance} cells; move "
    "one or lower the separation":
        "Разнесение: закреплённые плитки {tile!r} в {cell} и {other!r} в {other_cell} ближе {distance} клеток; "
        "передвиньте одну или уменьшите разнесение",
    "symmetry needs a kit with sockets; clear Symmetry": "Симметрии нужен набор с разъёмами; выключите «Симметрию»",
    "symmetry {axis}: no tile of the kit has a mirror twin ({tiles}); tick Mirror on asymmetric tiles or clear "
    "Symmetry":
        "Симметрия {axis}: ни у одной плитки набора нет зеркального двойника ({tiles}); включите «Зеркало» у "
        "несимметричных плиток или выключите «Симметрию»",
    "symmetry {axis}: the room is {width} cells across, so its middle row needs a tile that is its own mirror and "
    "the kit has none; make the width even or add a symmetric tile":
        "Симметрия {axis}: поперёк комнаты {width} клеток, поэтому её среднему ряду нужна плитка, зеркальная сама "
        "себе, а в наборе такой нет; сделайте ширину чётной или добавьте симметричную плитку",
    "symmetry: use {options} (or nothing), got {value!r}": "Симметрия: укажите {options} (или ничего), а не {value!r}",
})

# -- tile rooms: set pieces and Grow (scene/room_pieces.py, scene/room_grow.py, core/wfc/grow.py, operators/
#    room_grow.py, properties/rooms.py, panels/rooms.py) -------------------------------------------------------------
RUSSIAN.update({
    "Use Set Pieces": "Ручные плитки",
    "Copies of the kit's tiles standing in the room's box (linked or full copies, instances) become fixed cells: the "
    "room is assembled around them and leaves them where they are":
        "Копии плиток набора, стоящие в коробке комнаты (связанные и полные копии, экземпляры), становятся "
        "закреплёнными ячейками: комната собирается вокруг них и оставляет их на месте",
    "Grow": "Нарастить",
    "Add cells on one side of the room Strew assembled: the tiles already there stay (a wall facing the border on "
    "that side moves out, unless Keep Walls), the new cells are solved to fit them (growing on -X, -Y or -Z moves "
    "the room's origin; the old tiles keep their place)":
        "Добавить ячейки с одной стороны собранной Strew комнаты: уже стоящие плитки остаются (стена, обращённая "
        "к границе с этой стороны, отодвигается, если не включено «Сохранять стены»), новые ячейки подбираются под "
        "них (при наращивании по -X, -Y или -Z начало комнаты сдвигается; старые плитки остаются на месте)",
    "Side": "Сторона",
    "-X": "-X",
    "+X": "+X",
    "-Y": "-Y",
    "+Y": "+Y",
    "-Z": "-Z",
    "+Z": "+Z",
    "Before the first column: the room's origin moves by the new cells, the old tiles stay where they are":
        "Перед первым столбцом: начало комнаты сдвигается на новые ячейки, старые плитки остаются на месте",
    "After the last column": "После последнего столбца",
    "Before the first row: the room's origin moves by the new cells, the old tiles stay where they are":
        "Перед первым рядом: начало комнаты сдвигается на новые ячейки, старые плитки остаются на месте",
    "After the last row": "После последнего ряда",
    "A storey below: the room's origin moves down, the old tiles stay where they are":
        "Этаж снизу: начало комнаты опускается, старые плитки остаются на месте",
    "A storey on top": "Этаж сверху",
    "Cells": "Ячейки",
    "How many cells to add on that side": "Сколько ячеек добавить с этой стороны",
    "The side of the room Grow adds cells on": "Сторона комнаты, с которой «Нарастить» добавляет ячейки",
    "How many cells Grow adds on that side": "Сколько ячеек «Нарастить» добавляет с этой стороны",
    "{name}: grown on {side} by {cells} cell(s) to {x} × {y} × {z}, {added:,} new cell(s), in {seconds:.2f} s":
        "{name}: наращено по {side} на {cells} яч. до {x} × {y} × {z}, новых ячеек: {added:,}, за {seconds:.2f} с",
    "Built around {count} set piece(s)": "Собрано вокруг ручных плиток: {count}",
    "There is no room \"{name}\" to grow: assemble it first": "Нет комнаты «{name}», которую можно нарастить: сначала "
                                                             "соберите её",
    "Cannot grow the room on {side}: no tiles fit along the old tiles there ({error}); try another seed or side":
        "Не удаётся нарастить комнату по {side}: вдоль старых плиток там не подходит ни одна плитка ({error}); "
        "попробуйте другое зерно или сторону",
    "{count} set piece(s) used: {names}": "Использовано ручных плиток: {count}: {names}",
    "Set pieces {name!r} ({tile!r}) at {cell} and {other!r} ({other_tile!r}) cannot touch: side {side} {label!r} "
    "does not fit {other_label!r}; move or turn one":
        "Ручные плитки {name!r} ({tile!r}) в {cell} и {other!r} ({other_tile!r}) не могут соседствовать: "
        "сторона {side} {label!r} не подходит к {other_label!r}; передвиньте или поверните одну из них",
    "Set piece {name!r} (tile {tile!r}) is scaled {scale} where the tile is scaled {wanted}; give it the tile's "
    "scale (a negative scale on one axis mirrors it)":
        "Ручная плитка {name!r} (плитка {tile!r}) масштабирована на {scale}, а плитка — на {wanted}; верните ей "
        "масштаб плитки (отрицательный масштаб по одной оси отражает её)",
    "Set piece {name!r} (tile {tile!r}) is tilted; stand it upright, turned about Z only":
        "Ручная плитка {name!r} (плитка {tile!r}) наклонена; поставьте её прямо, поворачивая только вокруг Z",
    "Set piece {name!r} (tile {tile!r}) is turned {angle:.1f}°; turn it by a multiple of 90°":
        "Ручная плитка {name!r} (плитка {tile!r}) повёрнута на {angle:.1f}°; поверните её на угол, кратный 90°",
    "Set piece {name!r} (tile {tile!r}) is off the grid: its origin lies {distance:.3g} from cell {cell}'s "
    "(allowed: {share:.0%} of a cell); snap it to the cell or move it out of the room":
        "Ручная плитка {name!r} (плитка {tile!r}) не на сетке: её начало лежит в {distance:.3g} от начала "
        "ячейки {cell} (допустимо: {share:.0%} ячейки); привяжите её к ячейке или уберите из комнаты",
    "Set piece {name!r} is tile {tile!r} turned {rotation}°, a turn the tile does not allow (its rotations: "
    "{allowed}); turn it or allow the turn in Strew Tile":
        "Ручная плитка {name!r} — это плитка {tile!r}, повёрнутая на {rotation}°, а такой поворот плитке не "
        "разрешён (её повороты: {allowed}); поверните её или разрешите поворот в «Плитка Strew»",
    "Set piece {name!r} is tile {tile!r} mirrored, and the tile is not used mirrored; give it a positive scale or set "
    "strew_mirror on the tile":
        "Ручная плитка {name!r} — это отражённая плитка {tile!r}, а плитка не используется отражённой; верните "
        "ей положительный масштаб или задайте плитке strew_mirror",
    "Set piece {name!r} (tile {tile!r}, {cells} cells) at {cell} reaches outside the room of {size} cells; move it "
    "inwards or make the room larger":
        "Ручная плитка {name!r} (плитка {tile!r}, ячеек: {cells}) в {cell} выходит за комнату из {size} ячеек; "
        "сдвиньте её внутрь или увеличьте комнату",
    "Set piece {name!r} ({tile!r}) at {cell} faces the room's border on side {side} with {label!r}, which fits no "
    "border label ({border}); turn it or move it inwards":
        "Ручная плитка {name!r} ({tile!r}) в {cell} обращена к границе комнаты стороной {side} с меткой "
        "{label!r}, которая не подходит ни к одной метке границы ({border}); поверните её или сдвиньте внутрь",
    "Set piece {name!r} stands in cell {cell}, where Fixed Tiles pins {tile!r}; remove one of them":
        "Ручная плитка {name!r} стоит в ячейке {cell}, где «Закреплённые плитки» задают {tile!r}; уберите "
        "одно из двух",
    "Set piece {name!r} is tile {tile!r} turned {rotation}°, which this room cannot hold (the tile is left out, or "
    "its top or bottom fits no Above or Below label); move it out of the room or change the room":
        "Ручная плитка {name!r} — это плитка {tile!r}, повёрнутая на {rotation}°, а эта комната не может её "
        "вместить (плитка исключена или её верх либо низ не подходит к меткам «Сверху» и «Снизу»); уберите её из "
        "комнаты или измените комнату",
    "{name!r} stands in the room and looks like a copy of tile {tile!r}, but its mesh differs from the tile's; undo "
    "the edit, rename it (and its mesh) or move it out of the room":
        "{name!r} стоит в комнате и похож на копию плитки {tile!r}, но его сетка отличается от сетки плитки; "
        "отмените правку, переименуйте его (и его сетку) или уберите его из комнаты",
    "Set pieces {name!r} and {other!r} both stand in cell {cell}; keep one":
        "Ручные плитки {name!r} и {other!r} стоят в одной ячейке {cell}; оставьте одну",
    "grow: the side is one of {sides}, got {side!r}": "наращивание: сторона — одна из {sides}, получено {side!r}",
    "grow: add a whole number of cells ≥ 1, got {cells!r}":
        "наращивание: добавьте целое число ячеек ≥ 1, получено {cells!r}",
    "grow: write {syntax} with SIDE one of {sides} and N ≥ 1, e.g. {example!r}; cannot read {text!r}":
        "наращивание: напишите {syntax}, где SIDE — одна из {sides}, а N ≥ 1, например {example!r}; не удаётся "
        "прочитать {text!r}",
    # -- tile rooms: Grow moves a closed room's wall out (core/wfc/grow.py, scene/room_grow.py, operators/room_grow.py,
    #    properties/rooms.py) ------------------------------------------------------------------------------------------
    "Keep Walls": "Сохранять стены",
    "Keep every old tile, the wall on the grown side too (the grow is refused when nothing fits beyond it); off: the "
    "old wall layer on that side is solved again with the new cells, so the wall moves out":
        "Сохранять все прежние плитки, в том числе стену на наращиваемой стороне (наращивание отклоняется, если за "
        "ней ничего не подходит); выключено: прежний слой стены на этой стороне решается заново вместе с новыми "
        "ячейками, и стена отодвигается наружу",
    "{name}: grown on {side} by {cells} cell(s) to {x} × {y} × {z}, {added:,} new cell(s), {walls:,} wall cell(s) on "
    "{side} re-solved, in {seconds:.2f} s":
        "{name}: наращено по {side} на {cells} яч. до {x} × {y} × {z}, новых ячеек: {added:,}, ячеек стены по "
        "{side} решено заново: {walls:,}, за {seconds:.2f} с",
    "Cannot grow the room on {side} keeping its walls: no tiles fit beyond them ({error}); turn off Keep Walls to "
    "move the wall out":
        "Не удаётся нарастить комнату по {side}, сохраняя стены: за ними не подходит ни одна плитка ({error}); "
        "выключите «Сохранять стены», чтобы отодвинуть стену",
})

# Operator buttons read as actions; everything else in the "Operator" context is the same as RUSSIAN.
OPERATOR_RUSSIAN: dict[str, str] = {
    "Scatter": "Разбросать",
}


def translation_table() -> dict[str, dict[tuple[str, str], str]]:
    """The dictionary given to ``bpy.app.translations.register``: ``{locale: {(context, msgid): text}}``."""
    table: dict[tuple[str, str], str] = {}
    for msgid, text in RUSSIAN.items():
        table[("*", msgid)] = text
        table[("Operator", msgid)] = OPERATOR_RUSSIAN.get(msgid, text)
    return {LOCALE: table}


def register() -> None:
    bpy.app.translations.register(__package__, translation_table())


def unregister() -> None:
    bpy.app.translations.unregister(__package__)
